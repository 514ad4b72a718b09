import APXServing
import Hummingbird
import NIOCore

/// Test-only `/_demo/lines?n=N&type=ndjson|jsonl`: N JSON lines (`{"n":1,"big":9007199254740993}`),
/// each written on its own, with `application/x-ndjson` or `application/jsonl`.
struct LinesRoutes: Sendable {
  /// Adds the route to `router`.
  func register(on router: Router<ServerRequestContext>) {
    router.get("_demo/lines") { request, _ in
      let count = try request.intQuery("n", in: 0...100_000, default: 3)
      let type = request.query("type") ?? "ndjson"
      guard let contentType = ["ndjson": "application/x-ndjson", "jsonl": "application/jsonl"][type] else {
        throw DemoError.badRequest("invalid_parameter", "query parameter 'type' must be ndjson or jsonl, got '\(type)'")
      }
      return Response(
        status: .ok, headers: [.contentType: contentType],
        body: ResponseBody { writer in
          for n in stride(from: 1, through: count, by: 1) {
            try await writer.write(ByteBuffer(string: "{\"n\": \(n), \"big\": 9007199254740993}\n"))
          }
          try await writer.finish(nil)
        })
    }
  }
}
