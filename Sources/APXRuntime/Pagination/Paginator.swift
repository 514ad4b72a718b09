public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Follows an endpoint's pages (its registry `pagination`: REST, or a unary gRPC
/// method's page tokens) and hands on every
/// item as a stream: one `.message` per item, `.batchEnd` and `.progress`
/// after each page, and one `.finished` at the end.
///
/// DESIGN: pagination is a layer above a call. Each page is one call through
/// the `Executor` (auth, retries and their policy as for any call); only the
/// current page is in memory, so any number of pages runs in bounded memory.
/// `PageTurner` decides where the next page is and stops loops and runaway
/// servers; a next link to another origin is never followed, so credentials
/// stay with the origin the user called.
public struct Paginator: Sendable {
  public let executor: Executor
  /// Stop after this many items (`--max-items`).
  public var maxItems: Int?
  /// Overrides the registry's page cap (`--max-pages`).
  public var maxPages: Int?

  public init(executor: Executor, maxItems: Int? = nil, maxPages: Int? = nil) {
    self.executor = executor
    self.maxItems = maxItems
    self.maxPages = maxPages
  }

  /// A usage error for `--all` on an endpoint with no pages to follow (not REST, and no
  /// `pagination` block).
  public static func notPaginated(_ request: CallRequest) -> APXError {
    let name = "\(request.api.name).\(request.endpoint.name)"
    return APXError(
      .usage, "--all follows pages, and \(name) is \(request.endpoint.kind.withArticle) endpoint that declares none",
      hint: "add a \"pagination\" block to the endpoint in the registry (see docs/registry.md, Pagination), "
        + "or call it without --all")
  }

  /// Calls every page of `request` in turn. The last event is `.finished`.
  ///
  /// - Throws: a page's failure, saying which page (number and URL) failed, with that
  ///   failure's exit status; `.expectation` for a page apx cannot read, a loop, the page cap
  ///   or a next link to another origin; `.usage` when the endpoint has no pages to follow.
  public func call(_ request: CallRequest, sink: any CallEventSink) async throws -> CallOutcome {
    var attempts = 0
    do {
      guard let pagination = request.endpoint.pagesToFollow else { throw Self.notPaginated(request) }
      var turner = PageTurner(
        pagination, firstPage: Self.pageNumber(in: request, pagination: pagination), maxPages: maxPages)
      var page = request
      page.maxEvents = nil
      var count = 0
      var outcome = CallOutcome()
      while true {
        let collector = PageCollector(page: turner.page, downstream: sink)
        do {
          outcome = try await executor.call(page, sink: collector)
        } catch var error as APXError {
          error.message = Self.naming(page: turner.page, collector: collector, request: page, error)
          throw error
        }
        attempts += outcome.attempts
        let body = try collector.message ?? Self.parse(collector.body, page: turner.page)
        let items = try turner.items(in: body)
        for item in items {
          try sink.receive(.message(item))
          count += 1
          if let maxItems, count >= maxItems { break }
        }
        try sink.receive(.batchEnd)
        try sink.receive(
          .progress(
            fraction: maxItems.map { Double(count) / Double($0) }, done: Double(count), total: maxItems.map(Double.init)
          ))
        if let maxItems, count >= maxItems { break }
        let link = try LinkHeader.next(in: collector.links).map {
          try Self.resolve($0, against: collector.url ?? page.url ?? page.baseURL, page: turner.page, origin: page)
        }
        switch try turner.next(after: body, itemCount: items.count, link: link) {
        case .end:
          break
        case .link(let url):
          page.url = url
          continue
        case .parameter(let name, let value):
          page.values.removeAll { $0.name == name }
          page.values.append((name, .json(value)))
          continue
        }
        break
      }
      outcome.attempts = attempts
      try sink.receive(.finished(status: outcome.status, attempts: attempts, failure: nil))
      return outcome
    } catch {
      try? sink.receive(.finished(status: nil, attempts: attempts, failure: error as? APXError))
      throw error
    }
  }

  /// A failed page's message: its number, and its request unless the message shows it already.
  static func naming(page: Int, collector: PageCollector, request: CallRequest, _ error: APXError) -> String {
    let shown: Bool =
      switch error.reason {
      case .unexpectedStatus, .notAnEventStream: true
      default: false
      }
    let url = collector.url ?? request.url ?? request.baseURL
    let method = collector.method ?? request.endpoint.method
    return "page \(page)" + (shown ? "" : " (\(method) \(url))") + " failed: " + error.message
  }

  /// The page number the first request sends (style `page`), when the user gave one.
  static func pageNumber(in request: CallRequest, pagination: Pagination) -> Int? {
    guard case .page(let param, _, _) = pagination.style,
      let bound = request.values.last(where: { $0.name == param })?.value,
      case .json(let value) = bound
    else { return nil }
    switch value {
    case .number(let text), .string(let text): return Int(text)
    default: return nil
    }
  }

  static func parse(_ bytes: [UInt8], page: Int) throws(APXError) -> JSONValue {
    do {
      return try JSONParser.parse(bytes)
    } catch {
      throw APXError(
        .expectation, "page \(page) is not JSON (\(error))",
        hint: bytes.isEmpty ? "the page had no body" : "call the endpoint without --all to see what it answers")
    }
  }

  /// A `Link` target made absolute against the page's URL; one on another origin is refused.
  static func resolve(_ link: String, against base: String, page: Int, origin request: CallRequest) throws(APXError)
    -> String
  {
    guard let url = URL(string: link, relativeTo: URL(string: base))?.absoluteURL,
      let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
    else {
      throw APXError(
        .expectation, "page \(page) gives a next link that is not an http(s) URL",
        hint: "the server's Link header is malformed; call the endpoint without --all")
    }
    let target = url.absoluteString
    let from = NetworkErrorMapper.origin(base).lowercased()
    let to = NetworkErrorMapper.origin(target).lowercased()
    guard from == to else {
      throw APXError(
        .expectation,
        "page \(page) links its next page to another origin (\(NetworkErrorMapper.origin(target))); "
          + "apx does not follow it, so the credentials for \(NetworkErrorMapper.origin(base)) stay there",
        hint: "the items so far are printed; call the next page yourself if you trust that server")
    }
    return target
  }
}
