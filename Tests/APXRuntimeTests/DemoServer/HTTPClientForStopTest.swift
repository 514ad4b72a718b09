import AsyncHTTPClient

/// A client that reports whether a request could not connect at all.
struct HTTPClientForStopTest {
  let client = HTTPClient(eventLoopGroupProvider: .singleton)

  /// True when the request fails (e.g. connection refused).
  func connectFails(_ url: String) async -> Bool {
    do {
      _ = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
      return false
    } catch {
      return true
    }
  }

  func shutdown() async throws { try await client.shutdown() }
}
