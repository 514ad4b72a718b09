import APXCore
import Synchronization

/// A sink that keeps a REST call's body instead of printing it, so a caller
/// (the polling fallback) can read the response as one JSON value.
final class JSONCollectingSink: CallEventSink {
  /// Largest body kept; a poll result is a small status document.
  static let limit = 16 * 1024 * 1024

  private let body = Mutex<[UInt8]>([])

  init() {}

  /// Keeps body chunks (of the last response, should the call be retried);
  /// every other event is ignored.
  func receive(_ event: CallEvent) throws {
    if case .responseHead = event {
      body.withLock { $0.removeAll() }
      return
    }
    guard case .bodyChunk(let bytes) = event else { return }
    try body.withLock { collected throws(APXError) in
      guard collected.count + bytes.count <= Self.limit else {
        throw APXError(
          .expectation, "the polled response is larger than \(Self.limit / 1_048_576) MB",
          hint: "the fallback endpoint should return a small status document")
      }
      collected.append(contentsOf: bytes)
    }
  }

  /// The collected body parsed as JSON.
  /// - Throws: `APXError` (`.expectation`) when the body is not JSON.
  func json(endpoint: String) throws(APXError) -> JSONValue {
    let bytes = body.withLock { $0 }
    do {
      return try JSONParser.parse(bytes)
    } catch {
      throw APXError(
        .expectation, "the fallback endpoint \(endpoint) did not answer with JSON",
        hint: "the polling fallback reads its `until` path from a JSON body",
        cause: String(decoding: bytes.prefix(200), as: UTF8.self))
    }
  }
}
