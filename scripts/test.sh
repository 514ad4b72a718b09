#!/usr/bin/env bash
# The test command from the README: builds everything (the apx binary
# included, which the integration tests run) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
swift test --skip-build
