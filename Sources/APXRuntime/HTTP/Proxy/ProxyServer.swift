public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A forward proxy from a proxy URL (`--proxy`, `HTTPS_PROXY`, the config file's `proxy`), read
/// as curl reads it: `http://[user:password@]host[:port]` (no scheme means http, no port 1080),
/// or `socks5://` / `socks5h://host[:port]`.
public struct ProxyServer: Sendable, Hashable {
  /// How apx talks to the proxy.
  public enum Kind: Sendable, Hashable {
    /// An HTTP proxy: a CONNECT tunnel to the target.
    case http
    /// A SOCKS5 proxy (no authentication).
    case socks5
  }

  public var kind: Kind
  public var host: String
  public var port: Int
  /// Credentials from the URL's user info, percent-decoded; sent as `Proxy-Authorization: Basic`.
  public var username: String?
  public var password: String?

  /// The proxy as `-v` and errors show it: its password masked.
  public var display: String {
    let scheme = kind == .http ? "http" : "socks5"
    let user = username.map { name in password == nil ? "\(name)@" : "\(name):***@" } ?? ""
    return "\(scheme)://\(user)\(Origin(host: host, port: port).authority)"
  }

  /// The `Proxy-Authorization` value that carries the URL's credentials, or nil without them.
  var basicAuthorization: String? {
    username.map { "Basic " + Data("\($0):\(password ?? "")".utf8).base64EncodedString() }
  }

  /// Parses a proxy URL; `source` names where it came from in the error (`--proxy`, `HTTPS_PROXY`).
  public init(url text: String, source: String) throws(APXError) {
    func invalid(_ why: String) -> APXError {
      // The text is not echoed: it may hold a password.
      APXError(
        .usage, "\(source) is not a usable proxy URL: \(why)",
        hint: "use http://[user:password@]host:port (or socks5://host:port)")
    }
    var rest = Substring(text.trimmingWhitespace())
    var kind = Kind.http
    if let schemeEnd = rest.firstRange(of: "://") {
      switch rest[..<schemeEnd.lowerBound].lowercased() {
      case "http": kind = .http
      case "socks5", "socks5h": kind = .socks5
      case "https":
        throw invalid("apx cannot speak TLS to a proxy (https://); name the proxy's plain http:// port")
      case let other: throw invalid("the scheme \(other):// is not supported")
      }
      rest = rest[schemeEnd.upperBound...]
    }
    if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
      guard rest[slash...].allSatisfy({ $0 == "/" }) else { throw invalid("a proxy URL has no path") }
      rest = rest[..<slash]
    }
    if let at = rest.lastIndex(of: "@") {
      let userInfo = rest[..<at]
      rest = rest[rest.index(after: at)...]
      let name: Substring
      if let colon = userInfo.firstIndex(of: ":") {
        name = userInfo[..<colon]
        guard let decoded = Self.percentDecoded(userInfo[userInfo.index(after: colon)...]) else {
          throw invalid("bad percent-encoding in the password")
        }
        password = decoded
      } else {
        name = userInfo
      }
      guard let decoded = Self.percentDecoded(name) else { throw invalid("bad percent-encoding in the user name") }
      username = decoded
      if kind == .socks5 { throw invalid("apx cannot send credentials to a SOCKS proxy") }
    }
    let hostPart: String
    let portText: Substring?
    switch Origin.split(rest) {
    case .success(let parts): (hostPart, portText) = (Origin.bare(parts.host), parts.port)
    case .failure(.unclosedBracket): throw invalid("an IPv6 address needs its closing ]")
    case .failure(.textAfterAddress): throw invalid("bad host")
    }
    guard !hostPart.isEmpty else { throw invalid("no host") }
    host = hostPart
    if let portText {
      guard let p = Int(portText), (1...65_535).contains(p) else { throw invalid("the port must be from 1 to 65535") }
      port = p
    } else {
      port = 1080
    }
    self.kind = kind
  }

  /// `%XX` escapes decoded, or nil when one is malformed or the bytes are not UTF-8.
  static func percentDecoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var utf8 = text.utf8[...]
    while let byte = utf8.popFirst() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else {
        return nil
      }
      bytes.append(value)
      utf8 = utf8.dropFirst(2)
    }
    return String(validating: bytes, as: UTF8.self)
  }
}
