import APXCore
import Testing

/// An endpoint's kind and its kind's options are one value: the options of another kind
/// cannot be given to it.
@Suite("Endpoint options per kind")
struct EndpointOptionsTests {
  static let grpcOptions = GRPCOptions(service: "a.v1.S", method: "Get", schema: .reflection)

  @Test func theKindIsTheOptions() {
    #expect(Endpoint(name: "a", options: .rest(HTTPRoute())).kind == .rest)
    #expect(Endpoint(name: "a", options: .sse(HTTPRoute(), SSEOptions())).kind == .sse)
    #expect(Endpoint(name: "a", options: .grpc(Self.grpcOptions)).kind == .grpc)
    #expect(Endpoint(name: "a", options: .jsonrpc(HTTPRoute(), JSONRPCOptions(rpcMethod: "add"))).kind == .jsonrpc)
  }

  @Test func aGRPCEndpointHoldsNoHTTPRouteOfItsOwn() {
    let grpc = Endpoint(name: "a", options: .grpc(Self.grpcOptions))
    // Its method is stored once, in its options; on the wire it is POST /service/method.
    #expect(grpc.method == "POST")
    #expect(grpc.path == "/a.v1.S/Get")
    #expect(grpc.options.rerouted(HTTPRoute(method: "PUT", path: "/x")) == nil)
    #expect(grpc.sse == nil)
    #expect(grpc.jsonrpc == nil)
  }

  @Test func anHTTPBorneEndpointKeepsItsOptionsWhenRerouted() {
    let sse = EndpointOptions.sse(HTTPRoute(path: "/a"), SSEOptions(untilEvent: ["done"]))
    let moved = sse.rerouted(HTTPRoute(method: "POST", path: "/b"))
    #expect(moved == .sse(HTTPRoute(method: "POST", path: "/b"), SSEOptions(untilEvent: ["done"])))
    #expect(Endpoint(name: "a", options: .rest(HTTPRoute(path: "/x"))).sse == nil)
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
    #expect(api.endpoint(named: "list")?.options == .rest(HTTPRoute(path: "/items")))
    #expect(api.endpoint(named: "watch")?.options == .sse(HTTPRoute(path: "/events"), SSEOptions(untilEvent: ["done"])))
    #expect(api.endpoint(named: "get")?.options == .grpc(Self.grpcOptions))
    #expect(
      api.endpoint(named: "add")?.options
        == .jsonrpc(HTTPRoute(method: "POST", path: "/"), JSONRPCOptions(rpcMethod: "add")))
  }

  @Test func restAndSSEAreOneHTTPWireWhoseAnswerIsABodyOrEvents() throws {
    let form = AcceptedBody(contentType: "application/x-www-form-urlencoded", schema: nil)
    let pages = Pagination(style: .page(param: "page", start: 1, hasNext: nil))
    var rest = EndpointOptions.rest(HTTPRoute(path: "/a"), accepts: [form], pagination: pages)
    var sse = EndpointOptions.sse(HTTPRoute(path: "/a"), SSEOptions(), accepts: [form])
    // An event stream has no pages, and a body no events: neither state can be built.
    #expect(sse.paged(pages) == nil)
    #expect(rest.updateEvents { $0.untilEvent = ["done"] } == false)
    #expect(rest.kind == .rest)
    #expect(sse.updateEvents { $0.untilEvent = ["done"] })
    #expect(Endpoint(name: "w", options: sse).sse?.untilEvent == ["done"])
    #expect(Endpoint(name: "w", options: sse).accepts == [form])
    #expect(Endpoint(name: "l", options: rest).pagination == pages)
    rest = try #require(rest.paged(nil))
    #expect(Endpoint(name: "l", options: rest).pagination == nil)
    #expect(Endpoint(name: "l", options: rest).accepts == [form])
    // gRPC pages are its own option; JSON-RPC has none.
    #expect(
      Endpoint(name: "g", options: try #require(EndpointOptions.grpc(Self.grpcOptions).paged(pages))).pagination
        == pages)
    #expect(EndpointOptions.jsonrpc(HTTPRoute(), JSONRPCOptions(rpcMethod: "add")).paged(pages) == nil)
  }
}
