import Testing

@testable import APXCore

/// The capability table: one row per kind says which registry keys and `apx call` flags it
/// takes, and the loader's and the flag checks' messages are built from it.
@Suite("Kind capabilities")
struct KindCapabilityTests {
  @Test func everyKeyAndFlagBelongsToSomeKindAndNotToAll() {
    for key in EndpointKind.allRegistryKeys.subtracting(EndpointKind.sharedRegistryKeys) {
      let owners = EndpointKind.accepting(registryKey: key)
      #expect(!owners.isEmpty && owners.count < EndpointKind.allCases.count, "\(key): \(owners)")
    }
    for flag in CallFlag.allCases {
      let owners = EndpointKind.taking(flag)
      #expect(!owners.isEmpty && owners.count < EndpointKind.allCases.count, "\(flag): \(owners)")
    }
  }

  @Test func aMisplacedKeyNamesTheKindsThatTakeIt() {
    #expect(EndpointKind.rest.misplaced(registryKey: "service") == #""service" applies only to kind "grpc""#)
    #expect(
      EndpointKind.grpc.misplaced(registryKey: "accepts") == #""accepts" applies only to kinds "rest" and "sse""#)
    #expect(EndpointKind.grpc.misplaced(registryKey: "path") == #""path" does not apply to kind "grpc""#)
  }

  @Test func theLoaderRefusesAKeyTheKindsRowLacks() {
    let text = #"""
      {"api": "a", "environments": {"dev": {"base_url": "http://127.0.0.1:1"}}, "endpoints": {
        "e": {"kind": "jsonrpc", "rpc_method": "add", "subprotocols": ["x"]}
      }}
      """#
    let errors = #expect(throws: APXErrors.self) { try RegistryLoader.load(Array(text.utf8), file: "a.json") }
    #expect(errors?.errors.map(\.message) == [#""subprotocols" applies only to kind "websocket""#])
  }

  @Test func aRefusedFlagNamesTheKindsThatTakeIt() {
    #expect(
      EndpointKind.rest.refused(.authority, target: "books.get")
        == "--authority applies to gRPC calls, and books.get is a REST call")
    #expect(
      EndpointKind.sse.refused(.subprotocol) == "--subprotocol applies to WebSocket calls, and this is an SSE call")
    #expect(EndpointKind.grpc.refused(.http1Only).hasPrefix("--http1.1 applies to REST, SSE, JSON-RPC,"))
  }

  @Test func aKindWithoutARouteHasNoHTTPDefaults() {
    #expect(EndpointKind.grpc.capabilities.defaultRoute == nil)
    #expect(EndpointKind.jsonrpc.capabilities.defaultRoute == HTTPRoute(method: "POST", path: "/"))
    #expect(EndpointKind.allCases.filter(\.capabilities.followsLinkHeaders) == [.rest])
  }
}
