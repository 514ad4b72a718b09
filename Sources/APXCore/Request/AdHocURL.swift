/// The URL of an ad-hoc call (`apx call URL ...`), split into the origin and the rest.
///
/// The rule that tells a URL from `API.ENDPOINT` (`isURL`): a target that has a
/// scheme (`://`), or contains `/` or `:`, is a URL; API and endpoint names never
/// contain `/` or `:`. Nothing else is guessed: a bare `example.com` is looked up
/// as the API `example`, and the error suggests `http://example.com`.
///
/// Shorthands, as in HTTPie and xh: `:8080/path` is `http://localhost:8080/path`, and a
/// URL without a scheme gets `http://` (`localhost:8080/path`, `example.com/x`).
public struct AdHocURL: Sendable, Hashable {
  /// `http`, `https`, `grpc`, `grpcs`, `ws` or `wss`.
  public var scheme: String
  /// The host as written (an IPv6 literal keeps its brackets).
  public var host: String
  public var port: Int?
  /// The path and query as written (at least `/`), `{` and `}` percent-encoded; no fragment.
  public var pathAndQuery: String

  /// `scheme://host[:port]`.
  public var origin: String { "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "") }

  /// The whole URL.
  public var text: String { origin + pathAndQuery }

  /// The path without the query.
  public var path: String {
    pathAndQuery.firstIndex(of: "?").map { String(pathAndQuery[..<$0]) } ?? pathAndQuery
  }

  /// Whether `target` is a URL rather than `API.ENDPOINT` (see the type's rule).
  public static func isURL(_ target: String) -> Bool {
    target.contains("/") || target.contains(":")
  }

  /// Where `://` starts, if the text has it.
  static func schemeEnd(_ text: Substring) -> Substring.Index? {
    var i = text.startIndex
    while i < text.endIndex {
      if text[i...].hasPrefix("://") { return i }
      i = text.index(after: i)
    }
    return nil
  }

  /// Schemes an ad-hoc call understands.
  public static let schemes = ["http", "https", "grpc", "grpcs", "ws", "wss"]

  /// Parses and normalises `text`; anything malformed is a usage error naming it.
  public init(parsing text: String) throws(APXError) {
    func bad(
      _ why: String, hint: String = "write e.g. http://localhost:8080/path, :8080/path or https://api.example.com/v1"
    )
      -> APXError
    {
      APXError(.usage, "the URL \"\(URLUserInfo.masked(text))\" \(why)", hint: hint)
    }
    if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
      throw bad(
        "contains a space or control character", hint: "percent-encode it (%20) or pass it as an item: name==value")
    }
    var rest = Substring(text)
    if rest.hasPrefix(":") {
      rest = "http://localhost" + rest
    } else if let end = Self.schemeEnd(rest) {
      let scheme = rest[..<end].lowercased()
      guard Self.schemes.contains(scheme) else {
        throw bad("has the scheme \"\(scheme)\"; apx calls \(Self.schemes.joined(separator: ", "))")
      }
    } else {
      rest = "http://" + rest
    }
    let schemeEnd = Self.schemeEnd(rest)!
    scheme = rest[..<schemeEnd].lowercased()
    var afterScheme = rest[rest.index(schemeEnd, offsetBy: 3)...]
    if let hash = afterScheme.firstIndex(of: "#") { afterScheme = afterScheme[..<hash] }
    let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
    let authority = afterScheme[..<authorityEnd]
    guard !authority.contains("@") else {
      throw bad(
        "carries a user name or password",
        hint: "pass credentials with -a USER:PASSWORD (kept out of the URL and masked)")
    }
    let hostPart: Substring
    let portText: Substring?
    switch Origin.split(authority) {
    case .success(let parts): (hostPart, portText) = parts
    case .failure(.unclosedBracket): throw bad("has an unclosed '[' in its host")
    case .failure(.textAfterAddress): throw bad("has text after its IPv6 host")
    }
    guard !hostPart.isEmpty else { throw bad("has no host") }
    guard
      hostPart.hasPrefix("[")
        || hostPart.unicodeScalars.allSatisfy({
          $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-._~%".unicodeScalars.contains($0))
        })
    else {
      throw bad("has the host \"\(hostPart)\", which is not a host name or address")
    }
    host = String(hostPart)
    if let portText {
      guard let p = Int(portText), (1...65535).contains(p), portText.allSatisfy(\.isASCII) else {
        throw bad("has the port \"\(portText)\"; a port is a number from 1 to 65535")
      }
      port = p
    } else {
      port = nil
    }
    var tail = String(afterScheme[authorityEnd...])
    if tail.hasPrefix("?") { tail = "/" + tail }
    if tail.isEmpty { tail = "/" }
    // Braces are not allowed in URLs, and unencoded they would read as {placeholders}. A loop:
    // `replacing` (swift-string-processing's generic search) was 60 us of every ad-hoc call.
    var encoded = ""
    for character in tail {
      switch character {
      case "{": encoded += "%7B"
      case "}": encoded += "%7D"
      default: encoded.append(character)
      }
    }
    pathAndQuery = encoded
  }
}
