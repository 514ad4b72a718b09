#!/usr/bin/env bash
# Exits 0 when this Linux system can link apx as a static executable: glibc's and zlib's static
# archives (libc.a, libz.a) are where the Swift toolchain's clang looks. build-release.sh links
# statically then, and check-installed.sh expects a binary without a program interpreter.
set -euo pipefail
[ "$(uname -s)" = Linux ] || exit 1
clang="$(dirname "$(readlink -f "$(command -v swiftc)")")/clang"
for archive in libc.a libz.a; do
  found="$("$clang" -print-file-name="$archive" 2>/dev/null || true)"
  # clang echoes the bare name back when it finds nothing.
  [ -n "$found" ] && [ "$found" != "$archive" ] && [ -f "$found" ] || exit 1
done
