import Hummingbird

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The query of a `/api/v2/catalogue/...` request: the page size, how many books
/// the catalogue holds, and the fault injection every paginated route takes.
struct CatalogueQuery: Sendable {
  /// Books per page (`per_page` or `limit`, 1...1000, default 20).
  var perPage: Int
  /// Books in the catalogue (`total`, 0...1,000,000, default 45).
  var total: Int
  /// `fail_page=K`: page K answers 503 (Retry-After: 0) to the first `fail_times` requests per `key`.
  var failPage: Int?
  var failTimes: Int
  var key: String?
  /// `loop_at=K`: page K's next link or cursor leads back to page K (a hostile server).
  var loopAt: Int?
  /// `next_origin=URL`: page 1's next link points to this origin instead (a hostile server).
  var nextOrigin: String?

  init(_ request: Request, sizeName: String) throws {
    perPage = try request.intQuery(sizeName, in: 1...1000, default: 20)
    total = try request.intQuery("total", in: 0...1_000_000, default: 45)
    let failPage = try request.intQuery("fail_page", in: 0...1_000_000, default: 0)
    self.failPage = failPage == 0 ? nil : failPage
    failTimes = try request.intQuery("fail_times", in: 0...1000, default: 1)
    key = request.query("key")
    if self.failPage != nil && key == nil {
      throw DemoError.badRequest("missing_parameter", "fail_page needs a 'key' that counts its failures")
    }
    let loopAt = try request.intQuery("loop_at", in: 0...1_000_000, default: 0)
    self.loopAt = loopAt == 0 ? nil : loopAt
    nextOrigin = request.query("next_origin")
  }

  /// How many pages the catalogue fills (at least one, maybe empty).
  var lastPage: Int { max(1, (total + perPage - 1) / perPage) }

  /// The books of page `page` (1-based): `{"id": n, "title": "Book n"}`, none past the end.
  func books(page: Int) -> [JSONText] {
    let first = (page - 1) * perPage
    guard first < total else { return [] }
    return (first..<min(first + perPage, total)).map {
      .object([("id", .int($0 + 1)), ("title", .string("Book \($0 + 1)"))])
    }
  }

  /// Query items to carry over to the next page's link (all but the page number).
  var carried: [(String, String)] {
    var items: [(String, String)] = [("per_page", String(perPage)), ("total", String(total))]
    if let failPage, let key {
      items += [("fail_page", String(failPage)), ("fail_times", String(failTimes)), ("key", key)]
    }
    if let loopAt { items.append(("loop_at", String(loopAt))) }
    return items
  }

  /// Throws the planned 503 when `page` is the failing page and failures remain for the key.
  func injectFault(page: Int, stats: StatsRecorder) throws {
    guard let failPage, let key, page == failPage else { return }
    let seen = stats.update { stats -> Int in
      stats.flakyAttempts["catalogue:" + key, default: 0] += 1
      return stats.flakyAttempts["catalogue:" + key, default: 0]
    }
    if seen <= failTimes {
      throw DemoError(
        status: .serviceUnavailable, code: "unavailable",
        message: "page \(page) fails (\(seen) of \(failTimes) planned failures for key '\(key)')",
        headers: [.retryAfter: "0"])
    }
  }

  /// The 400 a real API answers for a page number it does not have.
  static func badPage(_ text: String, last: Int?) -> DemoError {
    DemoError.badRequest(
      "invalid_page",
      "page must be an integer from 1" + (last.map { " to \($0)" } ?? "") + ", got '\(text)'")
  }
}
