#!/usr/bin/env bash
# Judges `apx mock --openapi` with schemathesis on two real descriptions, as their owners publish
# them: Discord's (OpenAPI 3.1) and Twilio's REST API 2010 (OpenAPI 3.0.1, whose own examples
# break their `format: uri`). Every GET answer must pass its declared schema
# (response_schema_conformance); any violation fails. CI runs it after the test suites
# (.ci/run), where it does not compete with them for the child-process slots of 2 cores. Needs
# python3 with schemathesis, and a built apx.
#
#   scripts/schemathesis-mock.sh [APX]        (default .build/debug/apx)
#
# Discord operations whose path holds a free-form string are left out: schemathesis sends URLs
# of 150 KB there, which the HTTP server refuses with a bodiless 400 before the mock sees them.
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

# judge NAME DOCUMENT [SCHEMATHESIS OPTION ...]: serves DOCUMENT with apx mock and runs
# schemathesis against it; prints the summary, or the whole report and exits 1 on a violation.
judge() {
  local name="$1" doc="$2"
  shift 2
  "$apx" mock --openapi "$doc" --port 0 > "$work/$name.urls" 2> "$work/$name.mock.err" &
  mock_pid=$!
  for _ in $(seq 1 100); do
    [ -s "$work/$name.urls" ] && break
    kill -0 "$mock_pid" 2>/dev/null || { cat "$work/$name.mock.err" >&2; exit 1; }
    sleep 0.2
  done
  local url
  url="$(python3 -c 'import json, sys; print(next(iter(json.load(open(sys.argv[1])).values())))' "$work/$name.urls")"
  NO_COLOR=1 timeout 900 python3 -m schemathesis.cli run "$doc" --url "$url" \
    --checks response_schema_conformance --max-examples 5 --seed 1 --include-method GET \
    --phases examples,fuzzing "$@" > "$work/$name.report" 2>&1 || { cat "$work/$name.report"; exit 1; }
  if grep -q "violates schema" "$work/$name.report"; then
    cat "$work/$name.report"
    exit 1
  fi
  echo "== $name"
  tail -4 "$work/$name.report"
  kill "$mock_pid" 2>/dev/null || true
  wait "$mock_pid" 2>/dev/null || true
  mock_pid=""
}

gzip -dc Tests/Fixtures/openapi/discord-api-spec-openapi-3.1.json.gz > "$work/discord.json"
judge discord "$work/discord.json" \
  --exclude-path-regex '\{(code|instance_id|emoji_name|webhook_token)\}|/messages/search$' \
  -H 'Authorization: Bot any-token'

gzip -dc Tests/Fixtures/openapi/twilio-api-v2010.json.gz > "$work/twilio.json"
# HTTP Basic, as the description's only security scheme (accountSid_authToken) asks.
judge twilio "$work/twilio.json" -H 'Authorization: Basic QUN4eHg6dG9rZW4='
