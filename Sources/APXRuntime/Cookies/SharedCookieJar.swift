public import APXCore
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The cookie jar of one process's HTTP session, shared by its concurrent calls (a recipe's
/// `foreach`), with the clock that decides expiry.
public final class SharedCookieJar: Sendable {
  private let jar: Mutex<CookieJar>
  private let now: @Sendable () -> Double
  /// Every `Set-Cookie` taken in this run, in order, with its URL and time: what `--session`
  /// applies again onto the stored jar as it is when the run ends, so that a cookie another
  /// run stored meanwhile is kept.
  private let received = Mutex<[(values: [String], url: CookieURL, time: Double)]>([])
  /// Where a refused cookie is reported (the command's stderr), set once per run.
  private let report = Mutex<(@Sendable (String) -> Void)?>(nil)

  /// Reports each cookie refused for a public-suffix `Domain` to `report` from now on.
  public func reportRefusals(to report: @escaping @Sendable (String) -> Void) {
    self.report.withLock { $0 = report }
  }

  /// A jar holding `cookies`; `now` is seconds since 1970.
  public init(_ cookies: CookieJar = CookieJar(), now: @escaping @Sendable () -> Double = SharedCookieJar.wallClock) {
    jar = Mutex(cookies)
    self.now = now
  }

  /// Seconds since 1970, from the system clock.
  @Sendable public static func wallClock() -> Double { Date().timeIntervalSince1970 }

  /// The jar as it is now, expired cookies dropped (for `--session` to store).
  public var snapshot: CookieJar {
    let time = now()
    return jar.withLock {
      $0.removeExpired(now: time)
      return $0
    }
  }

  /// `stored` with this run's `Set-Cookie` headers applied again, in the order they came
  /// (a deletion too), expired cookies dropped: the jar `--session` stores when another run
  /// changed the session after this one read it.
  public func applied(onto stored: CookieJar) -> CookieJar {
    var merged = stored
    for change in received.withLock({ $0 }) {
      merged.store(change.values, from: change.url, now: change.time, suffixes: Self.suffixes(change.values))
    }
    merged.removeExpired(now: now())
    return merged
  }

  /// The public suffixes to judge `Set-Cookie` values by: the system's list is read only when
  /// one names a `Domain` (most answers set none, and a call should not pay for reading it).
  static func suffixes(_ values: [String]) -> PublicSuffixList {
    values.contains { $0.lowercased().contains("domain") } ? SystemPublicSuffixList.shared : .builtIn
  }

  /// `plan` with the jar's cookies for its URL in a `Cookie` header. A `Cookie` header the
  /// user set (`-H`, the registry) is left as it is: what the user wrote wins.
  public func attach(to plan: HTTPRequestPlan) -> HTTPRequestPlan {
    guard let url = CookieURL(plan.url), !plan.headers.contains(where: { $0.name.lowercased() == "cookie" }) else {
      return plan
    }
    let time = now()
    guard let header = jar.withLock({ $0.header(for: url, now: time) }) else { return plan }
    var plan = plan
    plan.headers.append(HeaderField("Cookie", header))
    return plan
  }

  /// Takes the `Set-Cookie` headers of an answer to `url`.
  public func store(_ headers: [HeaderField], from url: String) {
    let values = headers.filter { $0.name.lowercased() == "set-cookie" }.map(\.value)
    guard !values.isEmpty, let url = CookieURL(url) else { return }
    let time = now()
    let suffixes = Self.suffixes(values)
    let refused = jar.withLock { $0.store(values, from: url, now: time, suffixes: suffixes) }
    received.withLock { $0.append((values, url, time)) }
    if !refused.isEmpty, let report = report.withLock({ $0 }) {
      for line in refused { report("apx: " + line) }
    }
  }
}
