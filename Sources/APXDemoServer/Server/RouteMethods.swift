import APXServing
import HTTPTypes
import Hummingbird
import Synchronization

/// The methods each route answers, so that a request with another method gets `405 Method Not
/// Allowed` with an `Allow` header (RFC 9110 §15.5.6), as real servers answer, rather than the
/// router's 404. Filled once the routes are registered.
final class RouteMethods: Sendable {
  private let routes = Mutex<[(path: RouterPath, method: HTTPRequest.Method)]>([])

  /// Records the routes of `router`.
  func record(_ router: Router<ServerRequestContext>) {
    let described = router.routes.map { (path: $0.path, method: $0.method) }
    routes.withLock { $0 = described }
  }

  /// The methods of the routes matching `path`, sorted; empty when no route matches.
  func allowed(path: String) -> [String] {
    let segments = path.split(separator: "/", omittingEmptySubsequences: true)
    let methods = routes.withLock { routes in
      routes.filter { Self.matches($0.path, segments) }.map(\.method.rawValue)
    }
    return Set(methods).sorted()
  }

  private static func matches(_ route: RouterPath, _ segments: [Substring]) -> Bool {
    let components = route.components
    if components.last?.description == "**" {
      guard segments.count >= components.count - 1 else { return false }
      return zip(components.dropLast(), segments).allSatisfy { $0 ~= $1 }
    }
    return components.count == segments.count && zip(components, segments).allSatisfy { $0 ~= $1 }
  }
}
