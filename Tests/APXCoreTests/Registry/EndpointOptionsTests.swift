import APXCore
import Testing

/// An endpoint's kind and its kind's options are one value: the options of another kind
/// cannot be given to it.
@Suite("Endpoint options per kind")
struct EndpointOptionsTests {
  static let grpcOptions = GRPCOptions(service: "a.v1.S", method: "Get", schema: .reflection)

  @Test func theKindIsTheOptions() {
    #expect(Endpoint(name: "a", options: .rest()).kind == .rest)
    #expect(Endpoint(name: "a", options: .sse(SSEOptions())).kind == .sse)
    #expect(Endpoint(name: "a", options: .grpc(Self.grpcOptions)).kind == .grpc)
    #expect(Endpoint(name: "a", options: .jsonrpc(JSONRPCOptions(rpcMethod: "add"))).kind == .jsonrpc)
  }

  @Test func anotherKindsOptionsAreNotTaken() {
    var rest = Endpoint(name: "a", options: .rest())
    rest.grpc = Self.grpcOptions
    rest.jsonrpc = JSONRPCOptions(rpcMethod: "add")
    #expect(rest.options == .rest())
    var grpc = Endpoint(name: "a", options: .grpc(Self.grpcOptions))
    grpc.sse = SSEOptions(untilEvent: ["done"])
    #expect(grpc.options == .grpc(Self.grpcOptions))
    grpc.grpc?.schema = .protoset(path: "a.protoset")
    #expect(grpc.grpc?.schema == .protoset(path: "a.protoset"))
  }

  @Test func aRESTCallMayFollowAnAnswerThatIsAnEventStream() {
    var rest = Endpoint(name: "a", options: .rest())
    #expect(rest.sse == nil)
    rest.sse = SSEOptions(untilEvent: ["done"])
    #expect(rest.options == .rest(events: SSEOptions(untilEvent: ["done"])))
    #expect(rest.kind == .rest)
  }

  @Test func theLoaderGivesEachKindItsOptions() throws {
    let api = try RegistryLoader.load(
      Array(
        #"""
        {"api": "a", "environments": {"dev": {"base_url": "http://127.0.0.1:1"}}, "endpoints": {
          "list": {"kind": "rest", "path": "/items"},
          "watch": {"kind": "sse", "path": "/events", "until_event": ["done"]},
          "get": {"kind": "grpc", "service": "a.v1.S", "method": "Get"},
          "add": {"kind": "jsonrpc", "rpc_method": "add"}
        }}
        """#.utf8), file: "a.json")
    #expect(api.endpoint(named: "list")?.options == .rest())
    #expect(api.endpoint(named: "watch")?.options == .sse(SSEOptions(untilEvent: ["done"])))
    #expect(api.endpoint(named: "get")?.options == .grpc(Self.grpcOptions))
    #expect(api.endpoint(named: "add")?.options == .jsonrpc(JSONRPCOptions(rpcMethod: "add")))
  }
}
