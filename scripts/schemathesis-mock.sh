#!/usr/bin/env bash
# Judges `apx mock --openapi` on Discord's OpenAPI 3.1 description with schemathesis: every GET
# answer must pass its declared schema (response_schema_conformance); any violation fails.
# CI runs it after the test suites (.ci/run), where it does not compete with them for the
# child-process slots of 2 cores. Needs python3 with schemathesis, and a built apx.
#
#   scripts/schemathesis-mock.sh [APX]        (default .build/debug/apx)
#
# Operations whose path holds a free-form string are left out: schemathesis sends URLs of
# 150 KB there, which the HTTP server refuses with a bodiless 400 before the mock sees them.
set -euo pipefail
cd "$(dirname "$0")/.."
apx="${1:-.build/debug/apx}"
work="$(mktemp -d)"
mock_pid=""
cleanup() {
  [ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
gzip -dc Tests/Fixtures/openapi/discord-api-spec-openapi-3.1.json.gz > "$work/openapi.json"
"$apx" mock --openapi "$work/openapi.json" --port 0 > "$work/urls" 2> "$work/mock.err" &
mock_pid=$!
for _ in $(seq 1 100); do
  [ -s "$work/urls" ] && break
  kill -0 "$mock_pid" 2>/dev/null || { cat "$work/mock.err" >&2; exit 1; }
  sleep 0.2
done
url="$(python3 -c 'import json, sys; print(next(iter(json.load(open(sys.argv[1])).values())))' "$work/urls")"
NO_COLOR=1 timeout 900 python3 -m schemathesis.cli run "$work/openapi.json" --url "$url" \
  --checks response_schema_conformance --max-examples 5 --seed 1 --include-method GET \
  --phases examples,fuzzing \
  --exclude-path-regex '\{(code|instance_id|emoji_name|webhook_token)\}|/messages/search$' \
  -H 'Authorization: Bot any-token' > "$work/report" 2>&1 || { cat "$work/report"; exit 1; }
if grep -q "violates schema" "$work/report"; then
  cat "$work/report"
  exit 1
fi
tail -4 "$work/report"
