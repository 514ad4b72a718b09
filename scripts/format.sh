#!/usr/bin/env bash
# Formats (default) or lints (--lint) the Swift sources with the toolchain's swift-format.
# Generated gRPC/protobuf code is left as generated. --lint fails (exit 1) on any finding:
# .ci/run runs it, so run `scripts/format.sh` before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
# Tracked files and new ones not yet added (but not ignored ones): a new file is linted before
# its first commit, not only once CI's clone has it.
files=$(git ls-files --cached --others --exclude-standard 'Sources/*.swift' 'Tests/*.swift' 'Package.swift' |
  grep -v '/Generated/')
if [ "${1:-}" = "--lint" ]; then
  swift format lint --strict --configuration .swift-format $files
else
  swift format format --in-place --configuration .swift-format $files
fi
