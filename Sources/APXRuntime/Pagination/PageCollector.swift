import APXCore

/// A sink that takes an answer's `Link` header values as the server sent them. The
/// `.responseHead` event carries them masked for display, and a next link with a credential
/// in its query (`key=***`) would send the mask instead of the credential.
protocol RawLinkReceiver: AnyObject {
  /// Called right after `.responseHead`, with the answer's `Link` values unmasked.
  func receiveRawLinks(_ links: [String])
}

/// The sink of one page's call: keeps the page's body (up to a limit) and its
/// `Link` headers for the paginator, and hands on what the user sees of each
/// request (verbose lines, retries, notes). The page's own `.finished` is
/// swallowed: the paginated call ends once, after its last page.
///
/// Events arrive in order from the one task that runs the call (as for `CallPrinter`),
/// hence `@unchecked Sendable`.
final class PageCollector: CallEventSink, RawLinkReceiver, @unchecked Sendable {
  /// The most one page's body may hold (it is parsed whole: only the current page is in memory).
  static let limit = 64 * 1_048_576

  private let downstream: any CallEventSink
  private let number: Int
  private(set) var body: [UInt8] = []
  /// The answer message of a gRPC page (the page itself, already decoded).
  private(set) var message: JSONValue?
  /// The `Link` header values of the answer (unmasked, from `receiveRawLinks`, for a REST page).
  private(set) var links: [String] = []
  /// The URL of the last attempt, as shown (secrets masked).
  private(set) var url: String?
  private(set) var method: String?

  func receiveRawLinks(_ links: [String]) { self.links = links }

  init(page number: Int, downstream: any CallEventSink) {
    self.number = number
    self.downstream = downstream
  }

  func receive(_ event: CallEvent) throws {
    switch event {
    case .requestSent(let method, let url, _, _):
      self.method = method
      self.url = url
      try downstream.receive(event)
    case .responseHead(_, _, let headers):
      body = []
      links = headers.filter { $0.name.lowercased() == "link" }.map(\.value)
      try downstream.receive(event)
    case .bodyChunk(let chunk):
      guard body.count + chunk.count <= Self.limit else {
        throw APXError(
          .expectation, "page \(number) is larger than \(Self.limit / 1_048_576) MiB, the most apx reads of one page",
          hint: "ask for smaller pages (a per-page or limit parameter), or call the endpoint without --all")
      }
      chunk.withUnsafeBytes { body.append(contentsOf: $0) }
    case .retrying, .note, .trailers, .reconnecting, .fellBackToPolling, .bodySent, .requestBody, .proxy,
      .webSocketFrame, .secrets:
      try downstream.receive(event)
    case .message(let value):
      guard message == nil else {
        throw APXError(
          .expectation, "page \(number) is a stream of messages, and a page must be one answer",
          hint: "pagination follows unary methods that answer one message per page")
      }
      message = value
    case .bodyEnd, .singleAnswer, .progress, .batchEnd, .finished:
      break
    }
  }
}
