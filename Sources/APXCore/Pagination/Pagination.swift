/// How an endpoint's answers come in pages, from the registry's `pagination`
/// block: what leads to the next page, and where each page holds its items.
public struct Pagination: Sendable, Hashable {
  /// What leads from one page to the next.
  public enum Style: Sendable, Hashable {
    /// The `Link: <URL>; rel="next"` response header (RFC 8288); no header ends.
    case link
    /// A field of the body holds the next cursor (`next`), sent in the parameter `param`;
    /// a missing, null or empty cursor ends.
    case cursor(next: JSONPath, param: String)
    /// Numbered pages sent in the parameter `param` from `start`; a false or missing
    /// `hasNext` field ends, or (without one) an empty page.
    case page(param: String, start: Int, hasNext: JSONPath?)

    /// The registry's name of the style.
    public var name: String {
      switch self {
      case .link: "link"
      case .cursor: "cursor"
      case .page: "page"
      }
    }
  }

  public var style: Style
  /// Where a page's items are (an array); nil: the body itself is the array.
  public var items: JSONPath?
  /// The most pages one call follows (registry `max_pages`, `--max-pages`).
  public var maxPages: Int
  /// False for `undeclared`: nothing promises that a page is an array, so a page that is
  /// not one is a single item rather than an error.
  public var declared = true

  /// What `--all` follows on a REST endpoint without a `pagination` block (an ad-hoc URL
  /// included): the `Link: rel="next"` header, as `gh api --paginate` and restish follow it.
  /// A declared style always wins over it.
  public static var undeclared: Pagination {
    var pagination = Pagination(style: .link)
    pagination.declared = false
    return pagination
  }

  /// The page cap when the registry sets none: a runaway server stops here.
  public static let defaultMaxPages = 1000
  /// The largest page cap the registry or `--max-pages` may set.
  public static let maxPagesLimit = 1_000_000

  public init(style: Style, items: JSONPath? = nil, maxPages: Int = Pagination.defaultMaxPages) {
    self.style = style
    self.items = items
    self.maxPages = maxPages
  }

  /// The parameter the style fills in on every page after the first, nil for `link`.
  public var parameter: String? {
    switch style {
    case .link: nil
    case .cursor(_, let param), .page(let param, _, _): param
    }
  }
}
