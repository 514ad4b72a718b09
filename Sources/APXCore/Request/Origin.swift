/// Where a connection goes: a host and a port, written as URLs write them.
///
/// The one place that knows the bracket rule: an IPv6 address is kept bare (`::1`) and written
/// in brackets (`[::1]:8080`) wherever it stands next to a port or a scheme, in URLs, `Host`
/// headers, CONNECT targets, gRPC authorities and messages.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
  /// The scheme, lowercased (`http`, `grpcs`, `socks5`); empty when only the authority matters.
  public let scheme: String
  /// The host name or address, without brackets.
  public let host: String
  /// The port, nil when the text gave none.
  public let port: Int?

  /// - Parameter host: a host name or address, with or without brackets.
  public init(scheme: String = "", host: String, port: Int?) {
    self.scheme = scheme.lowercased()
    self.host = Self.bare(host)
    self.port = port
  }

  /// The host as a URL writes it: an IPv6 address in brackets.
  public var hostInURL: String { Self.hostInURL(host) }

  /// `host:port` (or `host` without a port), an IPv6 address in brackets.
  public var authority: String { port.map { "\(hostInURL):\($0)" } ?? hostInURL }

  /// `scheme://host:port`, or the authority without a scheme.
  public var description: String { scheme.isEmpty ? authority : "\(scheme)://\(authority)" }

  /// `host` as a URL writes it: in brackets when it is an IPv6 address (it holds a `:`) not
  /// already in them.
  public static func hostInURL(_ host: some StringProtocol) -> String {
    host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : String(host)
  }

  /// `host` without the brackets a URL puts around an IPv6 address.
  public static func bare(_ host: some StringProtocol) -> String {
    host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : String(host)
  }

  /// What is wrong with an authority's `host[:port]`.
  public enum AuthorityProblem: Error, Sendable, Hashable {
    /// `[` opens an IPv6 address that no `]` closes.
    case unclosedBracket
    /// Something other than `:PORT` follows an IPv6 address's `]`.
    case textAfterAddress(Substring)
  }

  /// Splits an authority's `host[:port]` (user info already removed) at its port's colon:
  /// `[::1]:8080` into `[::1]` (brackets kept, as written) and `8080`. The port text is not
  /// checked, so each caller can say what is wrong with it in its own words.
  public static func split(
    _ hostPort: Substring
  ) -> Result<(host: Substring, port: Substring?), AuthorityProblem> {
    if hostPort.hasPrefix("[") {
      guard let close = hostPort.firstIndex(of: "]") else { return .failure(.unclosedBracket) }
      let after = hostPort[hostPort.index(after: close)...]
      if after.isEmpty { return .success((hostPort[...close], nil)) }
      guard after.hasPrefix(":") else { return .failure(.textAfterAddress(after)) }
      return .success((hostPort[...close], after.dropFirst()))
    }
    guard let colon = hostPort.lastIndex(of: ":") else { return .success((hostPort, nil)) }
    return .success((hostPort[..<colon], hostPort[hostPort.index(after: colon)...]))
  }
}
