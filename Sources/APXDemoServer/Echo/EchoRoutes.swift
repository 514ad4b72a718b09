import APXServing
import Hummingbird
import NIOCore

/// Test-only `/_demo/echo/...`: answers any method with the request exactly as
/// the server received it (method, path, raw query, header fields in order,
/// body bytes), so tests of ad-hoc calls can check what apx put on the wire.
struct EchoRoutes: Sendable {
  /// Largest body echoed; a bigger one is refused with 413, as a real server would.
  static let maxBodyBytes = 1024 * 1024

  /// Adds the routes to `router`.
  func register(on router: Router<ServerRequestContext>) {
    for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete, .options] {
      for path in ["_demo/echo", "_demo/echo/**"] {
        router.on(RouterPath(path), method: method) { request, _ in try await Self.echo(request) }
      }
    }
  }

  static func echo(_ request: Request) async throws -> Response {
    var request = request
    let body = try await request.collectBody(upTo: maxBodyBytes)
    let bytes = Array(body.readableBytesView)
    var headers: [JSONText] = []
    for field in request.headers { headers.append(.array([.string(field.name.rawName), .string(field.value)])) }
    let query: JSONText = request.uri.query.map { JSONText.string(String($0)) } ?? .null
    let text: JSONText = String(validating: bytes, as: UTF8.self).map { JSONText.string($0) } ?? .null
    let members: [(String, JSONText)] = [
      ("method", .string(request.method.rawValue)),
      ("path", .string(String(request.uri.path))),
      ("query", query),
      ("headers", .array(headers)),
      ("body", text),
      ("body_bytes", .int(bytes.count)),
    ]
    return DemoResponse.json(.object(members))
  }
}
