import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The origin of a plain `http://` URL as a request through a proxy names it (see
/// `AbsoluteFormRelay`).
struct PlainHTTPOrigin: Hashable, Sendable {
  /// `host[:port]`, as the `Host` header carries it: the port only when it is not 80, an IPv6
  /// address in brackets.
  let authority: String

  /// The origin of `url` and its request target (path and query, `/` when the path is empty),
  /// or nil when `url` is not a plain `http://` URL with a host.
  static func split(_ url: String) -> (origin: PlainHTTPOrigin, target: String)? {
    guard let parts = URLComponents(string: url), parts.scheme?.lowercased() == "http",
      let host = parts.percentEncodedHost, !host.isEmpty
    else { return nil }
    let authority = Origin(host: host, port: parts.port == 80 ? nil : parts.port).authority
    var target = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
    if let query = parts.percentEncodedQuery { target += "?" + query }
    return (PlainHTTPOrigin(authority: authority), target)
  }
}
