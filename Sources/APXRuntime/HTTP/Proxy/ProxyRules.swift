public import APXCore

/// Which proxy, if any, each request of a run goes through, decided as curl decides: `--proxy`
/// for every URL (an empty value: none), else `http_proxy` for http:// and `https_proxy` for
/// https:// (ws:// and wss:// alike), else `all_proxy` (each in lower case first, then upper case), else the config
/// file's `proxy`; hosts on the `--noproxy` list (else `no_proxy`, else the config file's
/// `noproxy`) go direct. gRPC reads `https_proxy`, as grpc-go does, for grpc:// and grpcs://.
public struct ProxyRules: Sendable, Hashable {
  /// For http:// and ws:// URLs.
  public var http: ProxyServer?
  /// For https://, wss://, grpc:// and grpcs:// URLs.
  public var https: ProxyServer?
  /// Hosts that go direct.
  public var bypass: NoProxyList

  /// Every request direct.
  public init() {
    bypass = NoProxyList("")
  }

  /// The rules from the command line, the environment and the config file.
  ///
  /// - Parameters:
  ///   - flag: `--proxy`, nil when not given.
  ///   - noProxyFlag: `--noproxy`, nil when not given.
  ///   - configProxy: the config file's `proxy`, used when neither the flag nor any proxy
  ///     variable names one.
  public init(
    flag: String?, noProxyFlag: String?, environment: [String: String], configProxy: String? = nil,
    configNoProxy: String? = nil
  ) throws(APXError) {
    func variable(_ name: String) -> (name: String, value: String)? {
      for candidate in [name.lowercased(), name] {
        if let value = environment[candidate], !value.trimmingWhitespace().isEmpty { return (candidate, value) }
      }
      return nil
    }
    func server(_ found: (name: String, value: String)?) throws(APXError) -> ProxyServer? {
      guard let found else { return nil }
      return try ProxyServer(url: found.value, source: found.name)
    }
    bypass = NoProxyList(noProxyFlag ?? variable("NO_PROXY")?.value ?? configNoProxy ?? "")
    if let flag {
      if flag.trimmingWhitespace().isEmpty { return }
      let server = try ProxyServer(url: flag, source: "--proxy")
      (http, https) = (server, server)
      return
    }
    let all = variable("ALL_PROXY")
    http = try server(variable("HTTP_PROXY") ?? all)
    https = try server(variable("HTTPS_PROXY") ?? all)
    if http == nil, https == nil, let configProxy, !configProxy.trimmingWhitespace().isEmpty {
      let server = try ProxyServer(url: configProxy, source: "the config file's \"proxy\"")
      (http, https) = (server, server)
    }
  }

  /// Whether any URL may go through a proxy.
  public var isEmpty: Bool { http == nil && https == nil }

  /// The proxy for a URL with this scheme and host, or nil to go direct: `http` and `ws` take
  /// `http`'s, as curl reads them, every other scheme `https`'s.
  public func proxy(scheme: String, host: String) -> ProxyServer? {
    let plain = ["http", "ws"].contains(scheme.lowercased())
    let server = plain ? http : https
    guard let server, !bypass.matches(host: host) else { return nil }
    return server
  }

  /// The proxy for `url` (`scheme://[user@]host[:port]/...`), or nil to go direct.
  public func proxy(forURL url: String) -> ProxyServer? {
    guard !isEmpty, let schemeEnd = url.firstRange(of: "://") else { return nil }
    let scheme = String(url[..<schemeEnd.lowerBound])
    var authority = url[schemeEnd.upperBound...]
    if let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
      authority = authority[..<end]
    }
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    var host = authority
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      host = authority[...close]
    } else if let colon = authority.lastIndex(of: ":") {
      host = authority[..<colon]
    }
    return proxy(scheme: scheme, host: String(host))
  }
}
