#!/usr/bin/env bash
# Regenerates completions/ from the CLI. A test (CompletionScriptTests) fails
# when these files are stale: run this after changing commands or flags.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product apx
for shell in bash zsh fish; do
  .build/debug/apx completions "$shell" > "completions/apx.$shell"
done
echo "completions/ regenerated"
