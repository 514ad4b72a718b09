/// Decides, page by page, where a paginated call goes next, and guards against
/// hostile servers: the same next link or cursor twice is a loop, and no more
/// than `maxPages` pages are followed. Pure: the runtime fetches the pages.
public struct PageTurner: Sendable {
  /// Where the next page is.
  public enum Step: Sendable, Equatable {
    /// No more pages.
    case end
    /// Fetch this absolute URL (a `Link: rel="next"` target, already resolved).
    case link(String)
    /// Send the call again with this parameter set to `value`.
    case parameter(name: String, value: JSONValue)
  }

  public let pagination: Pagination
  /// The page cap in force.
  public let maxPages: Int
  /// The number of the page last handed to `next` (1 for the first).
  public private(set) var page = 1
  /// The page number sent with the current page (style `page`).
  private var pageNumber: Int
  /// Next links and cursors seen so far (at most `maxPages`).
  private var seen: Set<String> = []

  /// - Parameters:
  ///   - firstPage: the page number the first request sends (style `page`), when the user gave one.
  ///   - maxPages: overrides the registry's cap (`--max-pages`).
  public init(_ pagination: Pagination, firstPage: Int? = nil, maxPages: Int? = nil) {
    self.pagination = pagination
    self.maxPages = maxPages ?? pagination.maxPages
    if case .page(_, let start, _) = pagination.style {
      pageNumber = firstPage ?? start
    } else {
      pageNumber = 0
    }
  }

  /// The items of a page: the array at the `items` path (null or missing: none), or the body itself.
  public func items(in body: JSONValue) throws(APXError) -> [JSONValue] {
    guard let path = pagination.items else {
      guard case .array(let items) = body else {
        if !pagination.declared { return [body] }
        throw APXError(
          .expectation, "page \(page) is a JSON \(body.typeName), not an array of items",
          hint: "the registry's pagination.items says where a page's items are (e.g. \".data\")")
      }
      return items
    }
    switch try path.selectValue(in: body) {
    case .array(let items)?: return items
    case nil, .null?: return []
    case let other?:
      throw APXError(
        .expectation, "page \(page): \(path) is a \(other.typeName), not an array of items",
        hint: "check the registry's pagination.items for this endpoint")
    }
  }

  /// Where to go after the current page, whose body is `body` with `itemCount` items and
  /// whose `Link: rel="next"` target (resolved against its URL) is `link`.
  ///
  /// - Throws: `.expectation` when the server loops or more pages than the cap are offered.
  public mutating func next(after body: JSONValue, itemCount: Int, link: String?) throws(APXError) -> Step {
    let step: Step
    switch pagination.style {
    case .link:
      guard let link else { return .end }
      try remember(link, what: "next link")
      step = .link(link)
    case .cursor(let path, let param):
      let cursor = try path.selectValue(in: body)
      switch cursor {
      case nil, .null?, .string("")?: return .end
      case .string?, .number?: break
      case let other?:
        throw APXError(
          .expectation, "page \(page): the next cursor at \(path) is a \(other.typeName), not a string or number",
          hint: "check the registry's pagination.next_cursor for this endpoint")
      }
      try remember(cursor!.compactJSON, what: "next cursor")
      step = .parameter(name: param, value: cursor!)
    case .page(let param, _, let hasNext):
      if itemCount == 0 { return .end }
      if let hasNext, try hasNext.selectValue(in: body)?.boolValue != true { return .end }
      pageNumber += 1
      step = .parameter(name: param, value: .number(String(pageNumber)))
    }
    guard page < maxPages else {
      throw APXError(
        .expectation, "stopped after \(maxPages) pages, the page cap, and the server offers more",
        hint: "raise the cap with --max-pages N (or the registry's pagination.max_pages), "
          + "or stop sooner with --max-items N")
    }
    page += 1
    return step
  }

  private mutating func remember(_ key: String, what: String) throws(APXError) {
    guard seen.insert(key).inserted else {
      throw APXError(
        .expectation, "page \(page) gives a \(what) that an earlier page gave: the server's pages loop",
        hint: "the items so far are printed; report the loop to the API's owner")
    }
  }
}
