/// Checks the shape of a URL before anything is sent: its scheme, host and
/// port, and that it carries no user name or password. A port outside 1...65535 would otherwise trap deep inside the HTTP
/// client (`UInt16` conversion), so flags, registry files and redirect
/// targets all pass through here.
public enum BaseURLCheck {
  /// The schemes of base URLs: REST and SSE over HTTP, gRPC, and WebSocket (for APIs
  /// whose endpoints are all websocket ones).
  public static let baseURLSchemes = ["http", "https", "grpc", "grpcs", "ws", "wss"]

  /// True for `ws://` and `wss://` URLs, which only websocket endpoints can use.
  public static func isWebSocket(_ url: String) -> Bool {
    let lower = url.prefix(6).lowercased()
    return lower.hasPrefix("ws://") || lower.hasPrefix("wss://")
  }

  /// Why `url` cannot be used, or nil when it can. The text reads after the
  /// thing checked, e.g. "--base-url " + problem.
  /// - Parameter schemes: the schemes allowed (lower case).
  public static func problem(_ url: String, schemes: [String] = baseURLSchemes) -> String? {
    // Made only for a message: built on every call, the list of schemes (an unspecialised
    // `joined`, whose first use scanned the binary's conformance records) and the quoted URL
    // were 6% of the CPU of a registry gRPC call.
    var shown: String { JSONValue.string(URLUserInfo.masked(url)).compactJSON }
    guard let separator = url.utf8.indices.first(where: { url.utf8[$0...].starts(with: "://".utf8) }),
      schemes.contains(url[..<separator].lowercased())
    else {
      return "\(shown) must start with \(schemes.map { $0 + "://" }.joined(separator: ", "))"
    }
    // Sent as nothing (auth comes from -a or the registry) and shown wherever the URL is.
    if URLUserInfo.isPresent(in: url) {
      return "\(shown) carries a user name or password; give credentials with -a USER:PASSWORD or the API's auth"
    }
    let rest = url[url.utf8.index(separator, offsetBy: 3)...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    let hostPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
    let host: Substring
    let port: Substring?
    switch Origin.split(hostPort) {
    case .success(let parts): (host, port) = parts
    case .failure(.unclosedBracket): return "\(shown) has an IPv6 address without a closing ']'"
    case .failure(.textAfterAddress(let after)): return "\(shown) has \"\(after)\" after its IPv6 address"
    }
    guard !host.isEmpty else { return "\(shown) has no host" }
    if host.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
      return "\(shown) has spaces or control characters in its host"
    }
    if let port {
      // Int(_:) returns nil on overflow rather than trapping.
      guard !port.isEmpty, port.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let n = Int(port),
        (1...65535).contains(n)
      else {
        return "\(shown) has the port \"\(port)\", which is not a number from 1 to 65535"
      }
    }
    return nil
  }
}
