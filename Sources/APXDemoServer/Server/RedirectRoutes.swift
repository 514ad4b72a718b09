import APXServing
import HTTPTypes
import Hummingbird

/// Test routes for what clients send across redirects: `/_demo/redirect` answers any method
/// with a redirect (`status` 301, 302, 303, 307 or 308; default 302) to the URL in `to`, which
/// may be another origin, as real servers do (login pages, CDNs, moved APIs); `GET
/// /_demo/headers` answers with the request's headers, so a test sees what arrived.
struct RedirectRoutes: Sendable {
  static let statuses: Set<Int> = [301, 302, 303, 307, 308]

  /// Adds the routes to `router`.
  func register(on router: Router<ServerRequestContext>) {
    for method in [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete] {
      router.on("_demo/redirect", method: method) { request, _ in try redirect(request) }
    }
    router.get("_demo/headers") { request, _ in
      DemoResponse.json(.object(request.headers.map { ($0.name.canonicalName, .string($0.value)) }))
    }
  }

  private func redirect(_ request: Request) throws -> Response {
    guard let target = request.query("to") else {
      throw DemoError.badRequest("invalid_parameter", "give the redirect target as ?to=URL")
    }
    let status = try request.intQuery("status", in: 300...399, default: 302)
    guard Self.statuses.contains(status) else {
      throw DemoError.badRequest("invalid_parameter", "status must be one of 301, 302, 303, 307, 308")
    }
    return Response(status: .init(code: status), headers: [.location: target])
  }
}
