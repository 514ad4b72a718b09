import APXCore
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix

/// A target reached through a CONNECT tunnel of an HTTP proxy, for clients that have no proxy
/// setting of their own but connect to a unix-domain socket: grpc-swift-nio-transport (gRPC) and
/// apx's WebSocket handshake. The relay listens on a `RelaySocket` and relays each connection
/// through a tunnel that NIOExtras' `NIOHTTP1ProxyConnectHandler` opens to the target. TLS and
/// what runs over it stay the client's, end to end with the target.
enum TunnelRelay {
  /// Where a tunnel goes.
  struct Target: Sendable {
    var host: String
    var port: Int
    /// The target as errors name it (`grpcs://host:port`, `wss://host:port`).
    var shown: String
    /// What goes through it, for errors (`gRPC calls`, `WebSocket connections`).
    var calls: String
  }

  /// Starts relaying to `target` through `proxy` on `eventLoop`.
  ///
  /// - Parameter connectTimeout: how long connecting to the proxy and its CONNECT answer may take.
  static func start(
    proxy: ProxyServer, target: Target, connectTimeout: TimeAmount, on eventLoop: any EventLoop
  ) async throws -> RelaySocket {
    try requireHTTP(proxy, for: target.calls)
    let connectHeaders = ProxyConnectPipeline.headers(for: proxy)
    return try await RelaySocket.open(for: proxy, needs: "\(target.calls) through a proxy", on: eventLoop) {
      inbound, report in
      Self.tunnel(
        inbound, proxy: proxy, target: target, headers: connectHeaders, connectTimeout: connectTimeout,
        onOutcome: { error in report(error.map { Self.describe($0, proxy: proxy, target: target.shown) }) })
    }
  }

  /// Connects `inbound` (the client's connection) through a tunnel; closes it when none opens.
  private static func tunnel(
    _ inbound: any Channel, proxy: ProxyServer, target: Target, headers: HTTPHeaders, connectTimeout: TimeAmount,
    onOutcome: @escaping @Sendable ((any Error)?) -> Void
  ) {
    let deadline = NIODeadline.now() + connectTimeout
    let established = inbound.eventLoop.makePromise(of: Void.self)
    let bootstrap = ClientBootstrap(group: inbound.eventLoop)
      .connectTimeout(connectTimeout)
      .channelInitializer { upstream in
        upstream.eventLoop.makeCompletedFuture {
          try ProxyConnectPipeline.add(
            to: upstream, host: target.host, port: target.port, headers: headers, deadline: deadline,
            promise: established)
          // Once the tunnel is open the HTTP/1 handlers leave, and what the target sent after
          // the proxy's answer goes on to the relay behind them.
          established.futureResult.assumeIsolated().whenSuccess {
            try? upstream.pipeline.syncOperations.addHandler(ChannelRelay(partner: inbound))
            ProxyConnectPipeline.remove(from: upstream)
          }
        }
      }
    bootstrap.connect(host: proxy.host, port: proxy.port).whenComplete { result in
      switch result {
      case .failure(let error):
        established.fail(error)
      case .success(let upstream):
        established.futureResult.whenComplete { tunnel in
          switch tunnel {
          case .success:
            inbound.pipeline.addHandler(ChannelRelay(partner: upstream)).whenComplete { _ in
              inbound.setOption(.autoRead, value: true).whenComplete { _ in inbound.read() }
            }
          case .failure:
            upstream.close(promise: nil)
          }
        }
      }
    }
    established.futureResult.whenComplete { result in
      switch result {
      case .success:
        onOutcome(nil)
      case .failure(let error):
        onOutcome(error)
        inbound.close(promise: nil)
      }
    }
  }

  /// Refuses a SOCKS proxy for `calls`, which go through CONNECT tunnels of HTTP proxies only.
  static func requireHTTP(_ proxy: ProxyServer, for calls: String) throws(APXError) {
    guard proxy.kind == .http else {
      throw APXError(
        .usage, "\(calls) go through HTTP proxies only, and \(proxy.display) is a SOCKS proxy",
        hint: "name an http:// proxy in --proxy or HTTPS_PROXY, or add the host to --noproxy")
    }
  }

  /// The proxy's failure, said as the proxy's.
  static func describe(_ error: any Error, proxy: ProxyServer, target: String) -> APXError {
    guard let e = error as? NIOHTTP1ProxyConnectHandler.Error else {
      return ProxyFailure.error(.unreachable(cause: String(describing: error)), proxy: proxy, target: target)
    }
    let kind: ProxyFailure.Kind =
      if e == .proxyAuthenticationRequired() {
        .authenticationRequired
      } else if e == .httpProxyHandshakeTimeout() {
        .timedOut
      } else if e == .remoteConnectionClosed() {
        .closed
      } else {
        .refused
      }
    return ProxyFailure.error(kind, proxy: proxy, target: target)
  }
}
