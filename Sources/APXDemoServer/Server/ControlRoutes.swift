import APXServing
import Hummingbird

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Test-only control routes under `/_demo`.
struct ControlRoutes: Sendable {
  let stats: StatsRecorder
  let tokens: TokenStore

  /// Adds the routes to `router`.
  func register(on router: Router<ServerRequestContext>) {
    router.get("_demo/stats") { _, _ in
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      let data = try encoder.encode(stats.snapshot)
      return DemoResponse.text(String(decoding: data, as: UTF8.self), contentType: "application/json")
    }
    // Makes every access token expire now, to exercise clients' refresh paths.
    router.post("_demo/expire-tokens") { _, _ in
      DemoResponse.json(.object([("expired", .int(tokens.expireAll()))]))
    }
  }
}
