// The CLI lands here once its dependencies compile.
print("apx")
