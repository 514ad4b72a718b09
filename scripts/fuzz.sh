#!/usr/bin/env bash
# Runs the property and mutation tests of every parser and decoder with more
# cases than CI does (CI: 150 per property).
#
#   scripts/fuzz.sh [CASES] [FILTER]     e.g. scripts/fuzz.sh 20000 ParserFuzzTests
#
# A failing case prints its seed: add `.fixedSeed("...")` to that @Test to replay it.
# A trap ends the test process before a seed can be printed, so each input is
# printed (hex, on stderr) before it runs: the last `fuzz NAME: ...` line names it.
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-5000}"
filter="${2:-FuzzTests}"
swift build --build-tests
APX_FUZZ_COUNT="$cases" APX_FUZZ_VERBOSE="${APX_FUZZ_VERBOSE:-1}" swift test --skip-build --filter "$filter" 2> >(tail -n 200 >&2)
