/// Domains under which anyone may register names (`com`, `co.uk`, `github.io`): a cookie's
/// `Domain` must not be one, or one site could set a cookie for every other under it.
///
/// The rules are the Public Suffix List's (publicsuffix.org) when the system has a copy
/// (`SystemPublicSuffixList` reads it), else `builtIn`: every single-label domain (the list's
/// default rule `*`) and the best-known two-label suffixes.
public struct PublicSuffixList: Sendable {
  private var rules: Set<String> = []
  /// `*.NAME` rules, as NAME: every label under NAME is a public suffix.
  private var wildcards: Set<String> = []
  /// `!NAME` rules: NAME is not a public suffix, though a wildcard covers it.
  private var exceptions: Set<String> = []
  /// Where the rules came from, for messages ("the Public Suffix List in /usr/share/...").
  public let source: String

  /// The rules of a list in the Public Suffix List's format: one rule a line, `//` comments,
  /// `*.` wildcards and `!` exceptions; names lower-cased.
  public init(text: String, source: String) {
    self.source = source
    for line in text.split(whereSeparator: \.isNewline) {
      let rule = line.prefix { !$0.isWhitespace }.lowercased()
      if rule.isEmpty || rule.hasPrefix("//") { continue }
      if rule.hasPrefix("!") {
        exceptions.insert(String(rule.dropFirst()))
      } else if rule.hasPrefix("*.") {
        wildcards.insert(String(rule.dropFirst(2)))
      } else {
        rules.insert(rule)
      }
    }
  }

  /// The rules apx knows without the list: suffixes whose registrars sell names under them.
  public static let builtIn = PublicSuffixList(
    text: """
      co.uk org.uk me.uk ltd.uk plc.uk net.uk ac.uk gov.uk sch.uk nhs.uk police.uk
      com.au net.au org.au edu.au gov.au asn.au id.au
      co.nz net.nz org.nz govt.nz ac.nz
      co.jp ne.jp or.jp ac.jp go.jp
      co.kr or.kr ne.kr go.kr ac.kr
      com.br net.br org.br gov.br
      com.cn net.cn org.cn gov.cn edu.cn
      co.in net.in org.in gov.in ac.in firm.in
      co.za org.za gov.za ac.za
      com.mx org.mx gob.mx
      com.ar com.tr com.tw com.hk com.sg com.my com.ph com.pk com.ua com.pl com.es com.ru
      co.il co.id co.th co.ke
      github.io gitlab.io herokuapp.com vercel.app netlify.app pages.dev workers.dev
      appspot.com web.app firebaseapp.com azurewebsites.net cloudfront.net
      """.split(separator: " ").flatMap { $0.split(whereSeparator: \.isNewline) }.joined(separator: "\n"),
    source: "apx's built-in rules (no Public Suffix List on this system: Debian's publicsuffix package has one)")

  /// Whether `domain` (lower case, no leading dot) is a public suffix: a rule names it, a
  /// wildcard covers it and no exception does, or it has one label (the list's rule `*`).
  public func isPublicSuffix(_ domain: String) -> Bool {
    if exceptions.contains(domain) { return false }
    if rules.contains(domain) || !domain.contains(".") { return true }
    guard let dot = domain.firstIndex(of: ".") else { return false }
    return wildcards.contains(String(domain[domain.index(after: dot)...]))
  }
}
