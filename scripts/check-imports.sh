#!/usr/bin/env bash
# Fails when a target imports what the layering forbids:
#   apx -> APXRuntime -> (APXCore, APXProtobuf); apx -> APXImport -> APXCore; APXDemoServer stands alone.
# APXCore is pure (no networking, no files, no environment); APXDemoServer must
# not see apx's own modules, so it behaves like an independent API.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
check() { # target, forbidden-regex, reason
  local target=$1 forbidden=$2 reason=$3
  local hits
  hits=$(grep -rnE "^\s*(@testable\s+)?(@_exported\s+)?import\s+(${forbidden})\b" "Sources/$target" || true)
  if [ -n "$hits" ]; then
    echo "import rule broken in $target ($reason):"
    echo "$hits"
    status=1
  fi
}
check APXCore 'APXProtobuf|APXRuntime|APXDemoServer|ArgumentParser|AsyncHTTPClient|NIO[A-Za-z]*|GRPC[A-Za-z]*|Hummingbird[A-Za-z]*|Logging|Foundation|FoundationNetworking' "APXCore is pure: bytes and values in, values out"
check APXProtobuf 'APXRuntime|APXDemoServer|ArgumentParser|AsyncHTTPClient|NIO[A-Za-z]*|GRPC[A-Za-z]*|Hummingbird[A-Za-z]*' "APXProtobuf is pure codec code"
check APXImport 'APXProtobuf|APXRuntime|APXDemoServer|ArgumentParser|AsyncHTTPClient|NIO[A-Za-z]*|GRPC[A-Za-z]*|Hummingbird[A-Za-z]*|Logging|Foundation|FoundationNetworking' "APXImport is pure: a description in, registry values out (LibYAML reads YAML)"
check APXRuntime 'ArgumentParser|APXDemoServer|Hummingbird[A-Za-z]*' "the runtime never parses command lines or embeds the demo"
check APXDemoServer 'APXCore|APXProtobuf|APXRuntime|APXImport|ArgumentParser' "the demo backend is an independent API"
# Only the executable writes to stdout: no print() in the libraries.
hits=$(grep -rnE '(^|[^.A-Za-z])print\(' Sources/APXCore Sources/APXProtobuf Sources/APXRuntime Sources/APXImport || true)
if [ -n "$hits" ]; then
  echo "print() in a library target (stdout belongs to the apx executable):"
  echo "$hits"
  status=1
fi
[ $status -eq 0 ] && echo "import rules: ok"
exit $status
