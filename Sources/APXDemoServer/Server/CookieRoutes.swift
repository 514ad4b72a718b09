import APXServing
import HTTPTypes
import Hummingbird

/// Test routes for cookies: `GET /_demo/cookies/set?NAME=VALUE...` sets each pair as a
/// cookie (`path`, `max_age`, `domain` and `secure` in the query become attributes of them
/// all; `delay_ms`, at most 10000, holds the answer that long, so two clients overlap), and
/// `GET /_demo/cookies` answers `{"cookies": {NAME: VALUE}}` from the request's
/// `Cookie` header, so a test sees what a client sent back.
struct CookieRoutes: Sendable {
  static let attributes: Set<String> = ["path", "max_age", "domain", "secure", "delay_ms"]

  /// Adds the routes to `router`.
  func register(on router: Router<ServerRequestContext>) {
    router.get("_demo/cookies/set") { request, _ in
      if let delay = request.uri.queryParameters["delay_ms"] {
        guard let ms = Int(delay), (0...10_000).contains(ms) else {
          throw DemoError.badRequest("invalid_parameter", "delay_ms must be an integer from 0 to 10000")
        }
        try await Task.sleep(for: .milliseconds(ms))
      }
      return try set(request)
    }
    router.get("_demo/cookies") { request, _ in
      let pairs = request.headers[values: .cookie].flatMap { $0.split(separator: ";") }.compactMap {
        pair -> (String, JSONText)? in
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].drop { $0 == " " }
        return (String(name), .string(String(pair[pair.index(after: equals)...])))
      }
      return DemoResponse.json(.object([("cookies", .object(pairs))]))
    }
  }

  private func set(_ request: Request) throws -> Response {
    let query = request.uri.queryParameters
    var attributes = ""
    if let path = query["path"] { attributes += "; Path=\(path)" }
    if let maxAge = query["max_age"] {
      guard Int(maxAge) != nil else { throw DemoError.badRequest("invalid_parameter", "max_age must be an integer") }
      attributes += "; Max-Age=\(maxAge)"
    }
    if let domain = query["domain"] { attributes += "; Domain=\(domain)" }
    if query["secure"] != nil { attributes += "; Secure" }
    var headers = HTTPFields()
    var set: [(String, JSONText)] = []
    for (name, value) in query where !Self.attributes.contains(String(name)) {
      headers.append(HTTPField(name: .setCookie, value: "\(name)=\(value)\(attributes); HttpOnly"))
      set.append((String(name), .string(String(value))))
    }
    guard !set.isEmpty else {
      throw DemoError.badRequest("missing_parameter", "give the cookies to set as ?NAME=VALUE")
    }
    return DemoResponse.json(.object([("set", .object(set))]), headers: headers)
  }
}
