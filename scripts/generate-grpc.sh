#!/usr/bin/env bash
# Regenerates the demo gRPC server's Swift code and descriptor set from Protos/.
#
# Run by hand only, after editing a .proto; CI never runs it. The output is committed:
#   Sources/APXDemoServer/GRPC/Generated/*.pb.swift       messages (swift-protobuf)
#   Sources/APXDemoServer/GRPC/Generated/*.grpc.swift     service stubs (grpc-swift-2)
#   Sources/APXGRPCReflection/Generated/grpc_reflection_*  the reflection service's, likewise
#   Sources/APXDemoServer/GRPC/Generated/EmbeddedDescriptorSet.swift  protoset bytes for reflection
#   Protos/classnotes.protoset                            FileDescriptorSet, imports included
#
# Needs: swift, python3 with `pip install grpcio-tools` (for protoc and the well-known-type
# .proto files). The protoc plugins are built once, in release mode, in a throwaway package under
# .build-codegen/ (git-ignored), pinned to the same versions the main package uses, so the
# main .build/ folder is never touched.
#
# Usage: scripts/generate-grpc.sh [--plugins-only | --descriptors-only]
#   --descriptors-only   only the descriptor set and its embedded copy (no plugins needed): enough
#                        after a change that the generated Swift code does not show, such as an option
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CODEGEN="$ROOT/.build-codegen"
PLUGIN_PKG="$CODEGEN/plugins"
SWIFT_PROTOBUF_VERSION="1.39.0"
GRPC_SWIFT_PROTOBUF_VERSION="2.4.1"
JOBS="${JOBS:-1}"

build_plugins() {
  mkdir -p "$PLUGIN_PKG/Sources/Placeholder"
  # A package may only build products of its dependencies if it declares them, so this
  # throwaway package depends on both generator packages at exact versions.
  cat > "$PLUGIN_PKG/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "apx-codegen-plugins",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(url: "https://github.com/apple/swift-protobuf", exact: "$SWIFT_PROTOBUF_VERSION"),
    .package(url: "https://github.com/grpc/grpc-swift-protobuf", exact: "$GRPC_SWIFT_PROTOBUF_VERSION"),
  ],
  targets: [
    .target(
      name: "Placeholder",
      dependencies: [
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
      ]
    )
  ]
)
SWIFT
  echo "// Present only so the throwaway plugin package has a target." \
    > "$PLUGIN_PKG/Sources/Placeholder/Placeholder.swift"
  for product in protoc-gen-swift protoc-gen-grpc-swift-2; do
    echo "==> building $product (release, -j $JOBS)" >&2
    swift build --package-path "$PLUGIN_PKG" --scratch-path "$CODEGEN/scratch" \
      -c release -j "$JOBS" --product "$product"
  done
}

PLUGIN_BIN="$CODEGEN/scratch/release"
DESCRIPTORS_ONLY=0
[[ "${1:-}" == "--descriptors-only" ]] && DESCRIPTORS_ONLY=1
if [[ "$DESCRIPTORS_ONLY" == 0 ]] && [[ ! -x "$PLUGIN_BIN/protoc-gen-swift" || ! -x "$PLUGIN_BIN/protoc-gen-grpc-swift-2" ]]; then
  build_plugins
fi
if [[ "${1:-}" == "--plugins-only" ]]; then
  exit 0
fi

python3 -c "import grpc_tools" 2>/dev/null || {
  echo "error: python3 cannot import grpc_tools; run: pip install grpcio-tools" >&2
  exit 1
}
WKT_INCLUDE="$(python3 -c 'import grpc_tools, os; print(os.path.join(os.path.dirname(grpc_tools.__file__), "_proto"))')"

PROTOS="$ROOT/Protos"
OUT="$ROOT/Sources/APXDemoServer/GRPC/Generated"
# The reflection service's messages live with it, for the demo and the gRPC mock alike.
REFLECTION_OUT="$ROOT/Sources/APXGRPCReflection/Generated"
mkdir -p "$OUT" "$REFLECTION_OUT"

PROTO_FILES=(
  classnotes/v1/classnotes.proto
  grpc/reflection/v1/reflection.proto
  grpc/reflection/v1alpha/reflection.proto
)

if [[ "$DESCRIPTORS_ONLY" == 1 ]]; then
  python3 -m grpc_tools.protoc -I "$PROTOS" -I "$WKT_INCLUDE" --include_imports \
    --descriptor_set_out="$PROTOS/classnotes.protoset" "${PROTO_FILES[@]}"
else
# FileNaming=PathToUnderscores keeps the two reflection.proto files from colliding.
# Public visibility: the runtime tests call the server through these generated clients.
rm -f "$OUT"/*.pb.swift "$OUT"/*.grpc.swift "$REFLECTION_OUT"/*.pb.swift "$REFLECTION_OUT"/*.grpc.swift
python3 -m grpc_tools.protoc \
  -I "$PROTOS" -I "$WKT_INCLUDE" \
  --plugin=protoc-gen-swift="$PLUGIN_BIN/protoc-gen-swift" \
  --plugin=protoc-gen-grpc-swift-2="$PLUGIN_BIN/protoc-gen-grpc-swift-2" \
  --swift_out="$OUT" \
  --swift_opt=Visibility=Public,FileNaming=PathToUnderscores \
  --grpc-swift-2_out="$OUT" \
  --grpc-swift-2_opt=Visibility=Public,FileNaming=PathToUnderscores,Server=true,Client=true \
  --include_imports \
  --descriptor_set_out="$PROTOS/classnotes.protoset" \
  "${PROTO_FILES[@]}"
mv "$OUT"/grpc_reflection_*.swift "$REFLECTION_OUT"/
fi

# The same descriptor set, embedded as base64 so the server needs no file at run time.
python3 - "$PROTOS/classnotes.protoset" "$OUT/EmbeddedDescriptorSet.swift" <<'PY'
import base64, sys, textwrap
data = open(sys.argv[1], "rb").read()
encoded = base64.b64encode(data).decode("ascii")
lines = textwrap.wrap(encoded, 96)
body = "\n".join(f'    "{line}"' for line in lines)
swift = f'''// DO NOT EDIT. Generated by scripts/generate-grpc.sh from Protos/ ({len(data)} bytes).

/// The serialized `google.protobuf.FileDescriptorSet` of every .proto the demo gRPC server
/// serves, imports included, as base64. Server reflection answers from it.
enum EmbeddedDescriptorSet {{
  /// Base64 of `Protos/classnotes.protoset`.
  static let base64: String =
    [
{body.replace(chr(10), "," + chr(10))}
    ].joined()
}}
'''
open(sys.argv[2], "w").write(swift)
PY

echo "==> generated:" >&2
ls -1 "$OUT" "$PROTOS/classnotes.protoset" >&2
