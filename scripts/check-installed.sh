#!/usr/bin/env bash
# Checks an installed apx against what the README promises of `scripts/install.sh`
# (.ci/run runs it on a fresh clone, after the tests):
#
#   scripts/check-installed.sh PREFIX
#
# - PREFIX/bin/apx, its completions and man page exist where install.sh says;
# - the binary is stripped and at most 100 MB (full Foundation and ICU come with GraphQLSwift:
#   docs/architecture.md, "Foundation and the size cap");
# - on Linux, as scripts/build-release.sh links it: position-independent (PIE), unwind tables
#   kept (.eh_frame), glibc a shared library, the Swift runtime and libstdc++ linked statically;
# - it answers `--version` and makes a real call against its embedded demo backend;
# - `apx demo` serves until SIGTERM, and a call to it by the name `localhost` resolves through the
#   system's resolver.
# Exit codes: 0 all good, 1 a check failed (each failure is printed), 2 bad arguments.
set -euo pipefail

[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: scripts/check-installed.sh PREFIX (a folder install.sh wrote)" >&2; exit 2; }
prefix="$1"
apx="$prefix/bin/apx"
failed=0

# Runs a command with a time limit: coreutils `timeout` where there is one (Linux), else a
# watchdog that sends SIGTERM (stock macOS has no `timeout`). The watchdog's output goes to
# /dev/null so that a `$(...)` around this does not wait for its `sleep`.
time_limited() { # seconds, command...
  local limit=$1
  shift
  if command -v timeout > /dev/null 2>&1; then
    timeout "$limit" "$@"
    return
  fi
  "$@" &
  local pid=$! status=0
  (sleep "$limit" && kill -TERM "$pid") > /dev/null 2>&1 &
  local watchdog=$!
  wait "$pid" || status=$?
  kill "$watchdog" 2> /dev/null || true
  return "$status"
}
fail() { echo "check-installed: $*" >&2; failed=1; }

for f in bin/apx share/bash-completion/completions/apx share/zsh/site-functions/_apx \
  share/fish/vendor_completions.d/apx.fish share/man/man1/apx.1 share/apx/installed-files; do
  [ -e "$prefix/$f" ] || fail "$prefix/$f is missing"
done
[ -x "$apx" ] || { fail "$apx is not executable"; exit 1; }

size=$(wc -c < "$apx")
limit=$((100 * 1000 * 1000))
[ "$size" -le "$limit" ] || fail "$apx is $size bytes, over the 100 MB limit"
echo "binary: $size bytes (limit $limit)"

if [ "$(uname -s)" = Linux ]; then
  sections=$(readelf -SW "$apx")
  grep -q '\.symtab' <<< "$sections" && fail "$apx is not stripped (.symtab present)"
  grep -qE '\.eh_frame[[:space:]]' <<< "$sections" || fail "$apx has no unwind tables (.eh_frame)"
  dynamic=$(readelf -dW "$apx")
  grep -q 'libstdc++' <<< "$dynamic" && fail "$apx loads libstdc++ dynamically (it should be linked statically)"
  grep -q 'libswiftCore' <<< "$dynamic" && fail "$apx loads the Swift runtime dynamically (--static-swift-stdlib)"
  grep -q 'libc\.so' <<< "$dynamic" || fail "$apx does not load glibc as a shared library"
  readelf -hW "$apx" | grep -q 'Type:[[:space:]]*DYN' || fail "$apx is not position-independent (expected a PIE executable)"
  readelf -lW "$apx" | grep -q 'INTERP' || fail "$apx has no program interpreter (expected a dynamically linked executable)"
fi

version=$("$apx" --version) || fail "$apx --version failed"
case "$version" in "apx "*) echo "version: $version" ;; *) fail "unexpected --version output: $version" ;; esac

# A registry call through the release binary, against the demo it starts on a free port.
answer=$(cd "$(dirname "$0")/.." && "$apx" call --demo books.capabilities.get --select .api) ||
  fail "apx call --demo books.capabilities.get failed"
[ "$answer" = '"books"' ] || fail "apx call --demo books.capabilities.get answered $answer, not \"books\""

# `apx demo` on free ports (it prints their URLs as one JSON line), called through `localhost`.
demo_out="$(mktemp)"
"$apx" demo --port 0 --grpc-port 0 > "$demo_out" 2> /dev/null &
demo_pid=$!
http_url=""
for _ in $(seq 100); do
  http_url=$(sed -n 's/.*"http":"\([^"]*\)".*/\1/p' "$demo_out")
  [ -n "$http_url" ] && break
  sleep 0.1
done
if [ -z "$http_url" ]; then
  fail "apx demo printed no URL within 10 s"
else
  local_url="http://localhost:${http_url##*:}/api/v2/capabilities"
  answer=$(time_limited 20 "$apx" call "$local_url" --select .api) || fail "apx call $local_url failed"
  [ "$answer" = '"books"' ] || fail "apx call $local_url answered $answer, not \"books\""
fi
kill -TERM "$demo_pid" 2> /dev/null || fail "apx demo stopped before it was asked to"
for _ in $(seq 50); do kill -0 "$demo_pid" 2> /dev/null || break; sleep 0.1; done
if kill -0 "$demo_pid" 2> /dev/null; then
  fail "apx demo did not stop within 5 s of SIGTERM"
  kill -KILL "$demo_pid" 2> /dev/null || true
fi
wait "$demo_pid" 2> /dev/null || true
rm -f "$demo_out"

[ "$failed" = 0 ] && echo "check-installed: all checks passed for $apx"
exit "$failed"
