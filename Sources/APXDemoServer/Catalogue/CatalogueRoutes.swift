import APXServing
import HTTPTypes
import Hummingbird

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `GET /api/v2/catalogue/{link,cursor,pages,browse}`: one catalogue of books,
/// paged in each style clients must follow. Strict as real APIs are: a page
/// number out of range or a cursor the server did not issue is a 400.
///
/// - `link`: a JSON array per page, the next page in `Link: <...>; rel="next"` (a relative link).
/// - `cursor`: `{"items": [...], "next_cursor": "..."}`, the cursor opaque, null on the last page.
/// - `pages`: `{"data": [...], "page": N, "has_next": true|false}`.
/// - `browse`: `{"items": [...]}`, an empty page past the end.
struct CatalogueRoutes: Sendable {
  let stats: StatsRecorder
  static let linkField = HTTPField.Name("Link")!

  /// Adds the routes under `/api/v2` of `api`.
  func register(on api: RouterGroup<ServerRequestContext>) {
    api.get("catalogue/link") { request, _ in try link(request) }
    api.get("catalogue/cursor") { request, _ in try cursor(request) }
    api.get("catalogue/pages") { request, _ in try pages(request) }
    api.get("catalogue/browse") { request, _ in try browse(request) }
  }

  private func link(_ request: Request) throws -> Response {
    let query = try CatalogueQuery(request, sizeName: "per_page")
    let page = try Self.page(request, last: query.lastPage)
    try query.injectFault(page: page, stats: stats)
    var links: [String] = []
    let nextPage = query.loopAt == page ? page : page + 1
    if nextPage <= query.lastPage {
      let items = [("page", String(nextPage))] + query.carried
      let target = "/api/v2/catalogue/link?" + items.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
      links.append("<\((page == 1 ? query.nextOrigin : nil) ?? "")\(target)>; rel=\"next\"")
    }
    links.append("</api/v2/catalogue/link?page=\(query.lastPage)&per_page=\(query.perPage)>; rel=\"last\"")
    return DemoResponse.json(.array(query.books(page: page)), headers: [Self.linkField: links.joined(separator: ", ")])
  }

  private func cursor(_ request: Request) throws -> Response {
    let query = try CatalogueQuery(request, sizeName: "limit")
    var offset = 0
    if let text = request.query("cursor") {
      guard let decoded = Self.offset(ofCursor: text), decoded > 0, decoded < query.total else {
        throw DemoError.badRequest("invalid_cursor", "cursor '\(text)' was not issued by this server")
      }
      offset = decoded
    }
    let page = offset / query.perPage + 1
    try query.injectFault(page: page, stats: stats)
    let books = (offset..<min(offset + query.perPage, query.total)).map {
      JSONText.object([("id", .int($0 + 1)), ("title", .string("Book \($0 + 1)"))])
    }
    let nextOffset = query.loopAt == page ? offset : offset + query.perPage
    let next: JSONText = nextOffset < query.total && nextOffset > 0 ? .string(Self.cursor(offset: nextOffset)) : .null
    return DemoResponse.json(.object([("items", .array(books)), ("next_cursor", next)]))
  }

  private func pages(_ request: Request) throws -> Response {
    let query = try CatalogueQuery(request, sizeName: "per_page")
    let page = try Self.page(request, last: query.lastPage)
    try query.injectFault(page: page, stats: stats)
    return DemoResponse.json(
      .object([
        ("data", .array(query.books(page: page))), ("page", .int(page)),
        ("has_next", .bool(page < query.lastPage || query.loopAt != nil)),
      ]))
  }

  private func browse(_ request: Request) throws -> Response {
    let query = try CatalogueQuery(request, sizeName: "per_page")
    let page = try Self.page(request, last: nil)
    try query.injectFault(page: page, stats: stats)
    return DemoResponse.json(.object([("items", .array(query.books(page: page)))]))
  }

  /// The `page` query parameter (default 1): an integer from 1 (to `last`, when given).
  private static func page(_ request: Request, last: Int?) throws -> Int {
    guard let text = request.query("page") else { return 1 }
    guard let page = Int(text), page >= 1, page <= (last ?? 1_000_000) else {
      throw CatalogueQuery.badPage(text, last: last)
    }
    return page
  }

  /// An opaque cursor for a start offset (as real APIs issue: base64 of the position).
  static func cursor(offset: Int) -> String { Data("offset:\(offset)".utf8).base64EncodedString() }

  static func offset(ofCursor text: String) -> Int? {
    guard let data = Data(base64Encoded: text) else { return nil }
    let decoded = String(decoding: data, as: UTF8.self)
    guard decoded.hasPrefix("offset:") else { return nil }
    return Int(decoded.dropFirst("offset:".count))
  }

  /// Letters, marks and digits as they are, everything else as `%XX` of its UTF-8 bytes
  /// (Foundation's `addingPercentEncoding(withAllowedCharacters: .alphanumerics)`).
  private static func encode(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
        out.unicodeScalars.append(scalar)
      default:
        for byte in String(scalar).utf8 {
          out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
        }
      }
    }
    return out
  }
}
