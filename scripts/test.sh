#!/usr/bin/env bash
# The test command from the README: builds everything (the apx binary
# included, which the integration tests run) and runs every test.
#
#   scripts/test.sh                    every suite, against the debug build's apx
#   scripts/test.sh --installed FILE   the integration suite only, against the apx at FILE
#                                      (CI runs it on the installed release binary)
#
# When a test fails, its issues are repeated at the very end of the output:
# Swift Testing prints them where they happen, among ~900 other lines, and a
# CI log that keeps only its tail would otherwise lose them.
set -euo pipefail
cd "$(dirname "$0")/.."

filter=()
if [ $# -gt 0 ]; then
  if [ "$1" = --installed ] && [ $# -eq 2 ] && [ -x "$2" ]; then
    case "$2" in /*) APX_BINARY="$2" ;; *) APX_BINARY="$PWD/$2" ;; esac
    export APX_BINARY
    filter=(--filter APXIntegrationTests)
  else
    echo "usage: scripts/test.sh [--installed APX_EXECUTABLE]" >&2
    exit 2
  fi
fi

# The test process holds many sockets and pipes at once (servers, clients, up to 3 child
# processes per core); macOS starts shells with a soft limit of 256 open files, which those
# run out of. Raise the soft limit to 4096 where it is lower (the hard limit caps it).
wanted=4096
current=$(ulimit -n)
if [ "$current" != unlimited ] && [ "$current" -lt "$wanted" ]; then
  ulimit -Sn "$wanted" 2> /dev/null || ulimit -Sn "$(ulimit -Hn)" 2> /dev/null || true
  echo "scripts/test.sh: open-file limit $current raised to $(ulimit -n) (wanted $wanted)"
fi

# At most 6 tests per core run at once (Swift Testing starts every test together otherwise).
# Unbounded on 2 cores, ~100 tests started their servers at once and then waited minutes for
# child-process slots: their 5-minute time limits and their servers' lifetimes ran out while
# they waited, and the suite took longer. Bounded, a test's clock starts when it does.
cores=$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 2)
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$((cores * 6))}"

swift build --build-tests

log="$(mktemp "${TMPDIR:-/tmp}/apx-test.XXXXXX")"
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build ${filter[@]+"${filter[@]}"} 2>&1 | tee "$log" || status=$?
if [ "$status" -ne 0 ]; then
  echo
  echo "== the failures again (swift test exited $status)"
  # Swift Testing marks a failed test and each of its recorded issues with ✘;
  # XCTest says "error:" and "failed". The lines after an issue hold its detail.
  grep -n -A6 -E '✘|error:|XCTAssert|Test Case .* failed|Fatal error|signal [0-9]+|Exited with' "$log" | head -300 || true
fi
exit "$status"
