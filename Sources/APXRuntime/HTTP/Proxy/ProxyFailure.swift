import APXCore
import AsyncHTTPClient
import NIOCore
import NIOPosix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a proxy's refusal means, said as the proxy's and not the target's: a 407, a refused
/// tunnel, a proxy that cannot be reached or that closes the connection.
enum ProxyFailure {
  /// How a proxy failed.
  enum Kind {
    /// 407 Proxy Authentication Required.
    case authenticationRequired
    /// Any other answer to CONNECT than 2xx.
    case refused
    /// No answer to CONNECT in time.
    case timedOut
    /// The connection closed before the tunnel opened or an answer came through it.
    case closed
    /// The proxy itself could not be reached.
    case unreachable(cause: String?)
  }

  /// The error for a proxy's failure of `kind` on the way to `target` (`scheme://host:port`).
  static func error(
    _ kind: Kind, proxy: ProxyServer, target: String, underlying: (any Error & Sendable)? = nil
  ) -> APXError {
    let shown = proxy.display
    let bypass = "or, if \(target) can be reached directly, add its host to --noproxy (or NO_PROXY)"
    var error: APXError
    switch kind {
    case .authenticationRequired:
      let message =
        proxy.username == nil
        ? "the proxy \(shown) asks for credentials (407 Proxy Authentication Required)"
        : "the proxy \(shown) rejected the credentials in its URL (407 Proxy Authentication Required)"
      error = APXError(
        .auth, message, hint: "name the proxy as http://USER:PASSWORD@host:port in --proxy or HTTPS_PROXY",
        reason: .proxyFailed)
    case .refused:
      error = APXError(
        .network, "the proxy \(shown) refused to open a tunnel to \(target)",
        hint: "check that the proxy allows CONNECT to this host and port (many allow only port 443), \(bypass)",
        reason: .proxyFailed)
    case .timedOut:
      error = APXError(
        .timeout, "the proxy \(shown) did not open a tunnel to \(target) in time", hint: "check the proxy, \(bypass)",
        reason: .proxyFailed)
    case .closed:
      error = APXError(
        .network, "the connection through the proxy \(shown) to \(target) closed before an answer came",
        hint: "the proxy may have refused or dropped the tunnel; check its logs, \(bypass)", reason: .proxyFailed)
    case .unreachable(let cause):
      error = APXError(
        .network, "could not connect to the proxy \(shown)",
        hint: "check the proxy's host and port in --proxy, HTTPS_PROXY / HTTP_PROXY / ALL_PROXY or the config file",
        reason: .proxyFailed)
      error.cause = cause
    }
    // Kept for code that decides on the failure; the message already says what it means.
    error.underlying = underlying
    return error
  }

  /// The error for `error` met on a request to `url` through `proxy`, or nil when it is not
  /// the proxy's (the target's answer, TLS with the target).
  static func diagnose(_ error: any Error, proxy: ProxyServer, url: String) -> APXError? {
    let target = NetworkErrorMapper.origin(url)
    let kind: Kind
    if let e = error as? HTTPClientError {
      switch e {
      case .proxyAuthenticationRequired: kind = .authenticationRequired
      case .invalidProxyResponse: kind = .refused
      case .httpProxyHandshakeTimeout, .socksHandshakeTimeout: kind = .timedOut
      case .remoteConnectionClosed: kind = .closed
      default: return nil
      }
      return Self.error(kind, proxy: proxy, target: target, underlying: e)
    }
    if let e = error as? NIOConnectionError, e.host == proxy.host {
      let cause = e.connectionErrors.first.map { String(describing: $0.error) }
      return Self.error(.unreachable(cause: cause), proxy: proxy, target: target, underlying: e)
    }
    if let e = error as? IOError, e.errnoCode == ECONNREFUSED {
      return Self.error(.unreachable(cause: nil), proxy: proxy, target: target, underlying: e)
    }
    return nil
  }
}
