import APXCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// The browser of a login on the embedded demo (`--demo`), whose login page approves every
/// request without asking: apx follows the authorization URL and its redirect to apx's own
/// listener on 127.0.0.1, as a browser would. Never used for any other server.
public enum DemoBrowser {
  /// GETs `url`, then each redirect to a loopback address (at most three hops).
  public static func follow(_ url: String, session: HTTPSession) async throws {
    var next = url
    for _ in 0..<3 {
      let plan = HTTPRequestPlan(method: "GET", url: next, headers: [], body: .none)
      let response = try await session.send(plan, deadline: .now() + .seconds(30))
      _ = try await response.body.collect(upTo: 1 << 20)
      guard (300..<400).contains(Int(response.status.code)), let location = response.headers.first(name: "location"),
        location.hasPrefix("http://127.0.0.1:") || location.hasPrefix("http://[::1]:")
      else { return }
      next = location
    }
  }
}
