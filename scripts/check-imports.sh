#!/usr/bin/env bash
# Fails when a target imports what the layering forbids:
#   apx -> APXRuntime -> (APXCore, APXProtobuf, APXGraphQL -> APXCore); apx -> APXImport -> APXCore;
#   APXServing hosts servers and sees none of apx's modules; APXGRPCReflection serves reflection and
#   sees none either; APXDemoServer -> (APXServing, APXGRPCReflection) only;
#   apx -> APXMock -> (APXCore, APXGraphQL, APXServing);
#   apx -> APXGRPCMock -> (APXCore, APXProtobuf, APXServing, APXMock's replay, APXGRPCReflection).
# APXCore is pure (no networking, no files, no environment); APXDemoServer must
# not see apx's own modules, so it behaves like an independent API.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
# POSIX ERE only ([[:space:]], no \s or \b): GNU grep reads those escapes, BSD grep (macOS) may
# not, and a pattern that never matches would pass every file silently. The self-test below
# proves the pattern matches on the grep at hand.
import_pattern() { # forbidden-regex
  echo "^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]+((struct|class|enum|protocol|typealias|func|let|var)[[:space:]]+)?($1)([^A-Za-z0-9_]|$)"
}
self_test() {
  local pattern matched
  pattern=$(import_pattern 'Foundation')
  matched=$(printf '%s\n' 'import Foundation' '  @testable import Foundation' 'public import Foundation' \
    '@preconcurrency internal import Foundation // why' 'import struct Foundation.Data' | grep -cE "$pattern" || true)
  if [ "$matched" != 5 ]; then
    echo "check-imports.sh: the import pattern matched $matched of 5 forbidden imports on this grep"
    exit 1
  fi
  matched=$(printf '%s\n' 'import FoundationEssentials' '// import Foundation' 'let importFoundation = 1' |
    grep -cE "$pattern" || true)
  if [ "$matched" != 0 ]; then
    echo "check-imports.sh: the import pattern matched $matched allowed lines on this grep"
    exit 1
  fi
}
self_test
check() { # target, forbidden-regex, reason
  local target=$1 forbidden=$2 reason=$3
  local hits
  hits=$(grep -rnE "$(import_pattern "$forbidden")" "Sources/$target" || true)
  if [ -n "$hits" ]; then
    echo "import rule broken in $target ($reason):"
    echo "$hits"
    status=1
  fi
}
check APXCore 'APXProtobuf|APXRuntime|APXDemoServer|ArgumentParser|AsyncHTTPClient|NIO[A-Za-z]*|GRPC[A-Za-z]*|Hummingbird[A-Za-z]*|Logging|Foundation|FoundationNetworking' "APXCore is pure: bytes and values in, values out"
check APXProtobuf 'APXRuntime|APXDemoServer|ArgumentParser|AsyncHTTPClient|NIO[A-Za-z]*|GRPC[A-Za-z]*|Hummingbird[A-Za-z]*' "APXProtobuf is pure codec code"
check APXImport 'APXProtobuf|APXRuntime|APXDemoServer|ArgumentParser|AsyncHTTPClient|NIO[A-Za-z]*|GRPC[A-Za-z]*|Hummingbird[A-Za-z]*|Logging|Foundation|FoundationNetworking' "APXImport is pure: a description in, registry values out (LibYAML reads YAML)"
check APXGraphQL 'APXProtobuf|APXRuntime|APXImport|APXDemoServer|ArgumentParser|AsyncHTTPClient|NIO[A-Za-z]*|GRPC[A-Za-z]*|Hummingbird[A-Za-z]*|Logging|Foundation|FoundationNetworking' "APXGraphQL is pure: GraphQLSwift's parser and schema types in, apx's values and errors out"
check APXRuntime 'ArgumentParser|APXDemoServer|Hummingbird[A-Za-z]*' "the runtime never parses command lines or embeds the demo"
check APXMock 'APXProtobuf|APXRuntime|APXImport|APXDemoServer|ArgumentParser|AsyncHTTPClient|GRPC[A-Za-z]*|Foundation|FoundationNetworking' "the mock serves registry values on APXServing; the executable loads them"
check APXServing 'APXCore|APXProtobuf|APXRuntime|APXImport|APXGraphQL|APXDemoServer|APXMock|APXGRPCMock|ArgumentParser|AsyncHTTPClient|Foundation|FoundationNetworking' "serving hosts a server and knows nothing of apx's client or its fakes"
check APXDemoServer 'APXCore|APXProtobuf|APXRuntime|APXImport|APXMock|APXGRPCMock|ArgumentParser' "the demo backend is an independent API"
check APXGRPCReflection 'APXCore|APXProtobuf|APXRuntime|APXImport|APXGraphQL|APXServing|APXDemoServer|APXMock|APXGRPCMock|ArgumentParser|AsyncHTTPClient|Hummingbird[A-Za-z]*' "server reflection answers from a descriptor set and knows nothing of apx's client or its fakes"
check APXGRPCMock 'APXRuntime|APXImport|APXDemoServer|ArgumentParser|AsyncHTTPClient|Hummingbird[A-Za-z]*|Foundation|FoundationNetworking' "the gRPC mock serves descriptors: codec, server plumbing and values only"
# Full Foundation links ICU's 34 MB of data into apx. GraphQLSwift brings it in for now, but
# apx's own code must not come to need it (docs/architecture.md, "Foundation and the size
# cap"): outside APXCore, APXImport, APXGraphQL and APXGRPCMock (which may not import it at
# all) it may only be the fallback where FoundationEssentials is missing (macOS), i.e. in the
# #else of `#if canImport(FoundationEssentials)`. The demo's GraphQL routes too. Generated code too.
hits=$(find Sources/APXRuntime Sources/APXProtobuf Sources/APXDemoServer Sources/apx -name '*.swift' -print0 |
  xargs -0 awk '
    FNR == 1 { depth = 0 }
    /^[[:space:]]*#if/ { depth++; essentials[depth] = ($0 ~ /canImport\(FoundationEssentials\)/); inElse[depth] = 0 }
    /^[[:space:]]*#else/ { inElse[depth] = 1 }
    /^[[:space:]]*#endif/ { depth-- }
    /^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*(public[[:space:]]+|internal[[:space:]]+)?import[[:space:]]+(Foundation|FoundationInternationalization|FoundationNetworking)([[:space:]]|$)/ {
      if (!(depth > 0 && essentials[depth] && inElse[depth])) print FILENAME ":" FNR ": " $0
    }' || true)
if [ -n "$hits" ]; then
  echo "full Foundation imported where FoundationEssentials would do (it links ICU):"
  echo "$hits"
  status=1
fi
# Only the executable writes to stdout: no print() in the libraries.
hits=$(grep -rnE '(^|[^.A-Za-z])print\(' Sources/APXCore Sources/APXProtobuf Sources/APXRuntime Sources/APXImport Sources/APXMock || true)
if [ -n "$hits" ]; then
  echo "print() in a library target (stdout belongs to the apx executable):"
  echo "$hits"
  status=1
fi
[ $status -eq 0 ] && echo "import rules: ok"
exit $status
