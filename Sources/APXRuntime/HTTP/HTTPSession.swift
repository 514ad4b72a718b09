import APXCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Transport settings shared by every request of one run.
public struct HTTPSessionOptions: Sendable {
  /// Seconds to establish a connection.
  public var connectTimeout: Double = 10
  /// Skip TLS certificate verification (`--insecure`).
  public var insecure = false
  /// Trusted CA certificates in PEM (`--cacert`): with `trust`'s, instead of the system store.
  public var caCertificatePath: String?
  /// The system store, or what `SSL_CERT_FILE` / `SSL_CERT_DIR` name.
  public var trust: TrustStore
  /// The cookies the session's requests send and keep: a fresh jar per run, or a stored
  /// one (`--session NAME`), which the command saves when the run ends.
  public var cookies = SharedCookieJar()
  /// The client certificate (`--cert`, or the registry's `tls` block) that https requests
  /// offer when the server asks for one.
  public var clientCertificate: ClientCertificate?
  /// Which requests go through which proxy.
  public var proxy = ProxyRules()
  /// Only HTTP/1.1 (`--http1.1`); otherwise HTTP/2 when a TLS server offers it (ALPN).
  public var http1Only = false

  public init(
    connectTimeout: Double = 10, insecure: Bool = false, caCertificatePath: String? = nil,
    trust: TrustStore = TrustStore(), clientCertificate: ClientCertificate? = nil, proxy: ProxyRules = ProxyRules(),
    http1Only: Bool = false
  ) {
    self.connectTimeout = connectTimeout
    self.insecure = insecure
    self.caCertificatePath = caCertificatePath
    self.trust = trust
    self.clientCertificate = clientCertificate
    self.proxy = proxy
    self.http1Only = http1Only
  }
}

/// One AsyncHTTPClient for the lifetime of a scope (`withHTTPSession`): no
/// global clients. Sends single requests; redirects, retries and output are
/// the caller's (`RESTCall`), so that each hop can be shown and secured.
public struct HTTPSession: Sendable {
  /// The AsyncHTTPClient, made at the first request (`LazyHTTPClient`).
  let clients: LazyHTTPClient
  var client: HTTPClient { clients.client }
  /// Runs the session's work on the one event loop every connection of this session runs on.
  let executor: EventLoopTaskExecutor
  /// That event loop.
  var eventLoop: any EventLoop { executor.eventLoop }
  /// The cookies servers set, sent back with later requests of this session.
  public let cookies: SharedCookieJar
  /// The TLS settings of https requests, made at the first one: reading an `SSL_CERT_DIR` of
  /// 290 certificates cost every call 37 ms, plain http included (57 ms against 20 ms).
  let tls: LazyTLSConfiguration
  /// Which requests go through which proxy.
  let proxies: ProxyRules
  /// What carries plain http:// requests (in absolute form) and WebSocket connections (through
  /// a tunnel) to an HTTP proxy.
  let relays: ProxyRelays
  /// How many times its compressed size a gzip or deflate body may expand (JSON rarely
  /// passes 20; a decompression bomb reaches 1000).
  public static let decompressionRatioLimit = 200

  /// Runs `body` with a session whose client is shut down on return, unless `closing` is
  /// `.atProcessExit`.
  public static func with<T: Sendable>(
    _ options: HTTPSessionOptions = .init(), closing: SessionClosing = .graceful,
    _ body: (HTTPSession) async throws -> T
  ) async throws -> T {
    // One loop of one thread drives every connection, and `body` runs on that thread (its task
    // executor preference; tasks it starts with `Task {}` do not inherit it): an `await` on the
    // network resumes on the thread that read the answer instead of waking a thread of Swift's
    // pool, and a body is consumed where it is read (BodyPump). Measured on an ad-hoc gRPC call
    // with reflection: 41 -> 27 context switches, 11.7 -> 9.7 ms of CPU.
    let relays = ProxyRelays(
      connectTimeout: .milliseconds(DurationConversion.milliseconds(options.connectTimeout)))
    func run(_ clients: LazyHTTPClient, on executor: EventLoopTaskExecutor) async throws -> T {
      let session = HTTPSession(
        clients: clients, executor: executor, cookies: options.cookies, tls: LazyTLSConfiguration(options),
        proxies: options.proxy, relays: relays)
      return try await withTaskExecutorPreference(executor) { try await body(session) }
    }
    if case .atProcessExit = closing {
      // The command's own loop, never shut down; the client is kept until the exit.
      let executor = CommandEventLoop.executor
      let clients = LazyHTTPClient(eventLoopGroup: executor.eventLoop) { configuration(options, route: $0) }
      ProcessLifetime.keep(clients)
      ProcessLifetime.keep(relays)
      return try await run(clients, on: executor)
    }
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let clients = LazyHTTPClient(eventLoopGroup: group) { configuration(options, route: $0) }
    // The client's shutdown and the loop's run after `body` has left the loop's thread.
    do {
      let result = try await run(clients, on: EventLoopTaskExecutor(group.next()))
      try await clients.shutdown()
      await relays.close()
      try await group.shutdownGracefully()
      return result
    } catch {
      try? await clients.shutdown()
      await relays.close()
      try? await group.shutdownGracefully()
      throw error
    }
  }

  private static func configuration(_ options: HTTPSessionOptions, route: LazyHTTPClient.Route)
    -> HTTPClient.Configuration
  {
    let proxy = route.proxy
    var config = HTTPClient.Configuration(
      redirectConfiguration: .disallow,
      timeout: .init(connect: .milliseconds(DurationConversion.milliseconds(options.connectTimeout)), read: nil))
    config.httpVersion = options.http1Only ? .http1Only : .automatic
    if let proxy {
      switch proxy.kind {
      case .http:
        // AsyncHTTPClient tunnels every request through CONNECT; plain http:// ones go through
        // an `AbsoluteFormRelay` instead (`send`).
        config.proxy = .server(
          host: proxy.host, port: proxy.port,
          authorization: proxy.username.map { .basic(username: $0, password: proxy.password ?? "") })
      case .socks5:
        config.proxy = .socksServer(host: proxy.host, port: proxy.port)
      }
    }
    // AHC retries refused connections until the connect timeout by default; apx's
    // own retry policy decides instead, so a dead server fails in milliseconds.
    config.connectionPool.retryConnectionEstablishment = false
    // AHC's default of 8 HTTP/1.1 connections per host capped recipe `foreach`
    // concurrency at 8 (measured: 8 views in flight with concurrency 16).
    config.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
    // Sends `Accept-Encoding: deflate, gzip` (unless -H sets one) and decodes such bodies as
    // they stream, so nothing downstream sees compressed bytes. The ratio bounds a
    // decompression bomb: a body may expand at most this many times its compressed size.
    config.decompression = .enabled(limit: .ratio(HTTPSession.decompressionRatioLimit))
    if let address = route.tunnelledAddress {
      // AsyncHTTPClient runs these on each new connection, after its handshake and before its
      // first request: the point where the certificate can be held to the target's address.
      config.http1_1ConnectionDebugInitializer = { TunnelledAddressCheck.verify($0, address: address) }
      config.http2ConnectionDebugInitializer = { TunnelledAddressCheck.verify($0, address: address) }
    }
    return config
  }

  /// The proxy a request to `url` goes through, or nil when it goes direct.
  public func proxy(for url: String) -> ProxyServer? { proxies.proxy(forURL: url) }

  /// The error for a plaintext server at `url` that speaks only HTTP/2 without TLS (h2c), or nil
  /// when it does not.
  private func h2cOnly(_ url: String, deadline: NIODeadline) async -> APXError? {
    guard let parsed = URL(string: url), let host = parsed.host else { return nil }
    let port = parsed.port ?? 80
    let speaks = await H2CProbe.speaksH2C(
      host: host, port: port, on: eventLoop, deadline: min(deadline, .now() + .seconds(5)))
    guard speaks else { return nil }
    let target = NetworkErrorMapper.origin(url)
    return APXError(
      .network,
      "\(target) speaks HTTP/2 without TLS (h2c) only, and apx speaks HTTP/2 to REST, SSE and JSON-RPC servers over TLS only",
      hint: "a gRPC server takes grpc://\(host):\(port)/SERVICE/METHOD; otherwise call the server's https:// "
        + "or HTTP/1.1 address", reason: .h2cOnly)
  }

  /// Sends one request (no redirects) and returns once the response head has arrived.
  ///
  /// - Parameter upload: told how much of a streamed body has gone out.
  func send(_ plan: HTTPRequestPlan, deadline: NIODeadline, upload: UploadProgress? = nil) async throws
    -> HTTPClientResponse
  {
    var request = HTTPClientRequest(url: plan.url)
    request.method = HTTPMethod(rawValue: plan.method)
    for h in plan.headersSent {
      // Files and `-H` were checked when read; this catches values from `${env:...}` and
      // credentials. Never sent (a CR or LF would split the request) and never retried.
      if let problem = HeaderSyntax.problem(name: h.name, value: h.value) {
        throw APXError(
          .usage, problem, hint: "check the environment variables and credentials that fill this header")
      }
      request.headers.add(name: h.name, value: h.value)
    }
    request.body = try RequestBodyFactory.make(plan.body, progress: upload)
    let proxy = proxy(for: plan.url)
    guard request.url.lowercased().hasPrefix("https:") else {
      if tls.hasClientCertificate {
        throw APXError(
          .usage,
          "a client certificate (--cert/--key) needs an https:// URL, but \(NetworkErrorMapper.origin(plan.url)) is plain http",
          hint: "call the server's https:// address, or leave out --cert and --key")
      }
      if let proxy, proxy.kind == .http, let (origin, target) = PlainHTTPOrigin.split(plan.url) {
        return try await sendAbsolute(
          request, plan: plan, origin: origin, target: target, proxy: proxy, deadline: deadline)
      }
      let client = clients.client(through: proxy)
      do {
        return try await client.execute(request, deadline: deadline)
      } catch {
        if let proxy, let failure = ProxyFailure.diagnose(error, proxy: proxy, url: plan.url) { throw failure }
        // Only bytes that do not start as HTTP/1 at all: broken framing is a server's own.
        if proxy == nil, error as? HTTPParserError == .invalidConstant,
          let h2c = await h2cOnly(plan.url, deadline: deadline)
        {
          throw h2c
        }
        throw error
      }
    }
    request.tlsConfiguration = try tls.configuration()
    var tunnelledAddress: String?
    if proxy != nil, tls.verifiesCertificates, let host = URLComponents(string: plan.url)?.host,
      HostText.isIPAddress(host)
    {
      // Through a tunnel the connection's peer is the proxy, the address BoringSSL would hold an
      // IP address in the certificate to: it checks the chain, and the client the target's address.
      request.tlsConfiguration?.certificateVerification = .noHostnameVerification
      tunnelledAddress = host
    }
    let client = clients.client(through: proxy, checkingAddress: tunnelledAddress)
    do {
      return try await client.execute(request, deadline: deadline)
    } catch {
      if let proxy, let failure = ProxyFailure.diagnose(error, proxy: proxy, url: plan.url) { throw failure }
      throw await HTTPTLSFailure.diagnose(
        error, url: plan.url, on: eventLoop, deadline: deadline, probe: proxy == nil) ?? error
    }
  }
}

extension HTTPSession {
  /// Sends a plain http:// request to `proxy` in absolute form, through the session's relay
  /// for `origin`; the proxy's 407 and its failures are the proxy's errors, not the answer.
  fileprivate func sendAbsolute(
    _ request: HTTPClientRequest, plan: HTTPRequestPlan, origin: PlainHTTPOrigin, target: String, proxy: ProxyServer,
    deadline: NIODeadline
  ) async throws -> HTTPClientResponse {
    let relay = try await relays.absoluteForm(for: origin, through: proxy, on: eventLoop)
    var request = request
    guard let url = URL(httpURLWithSocketPath: relay.socketPath, uri: target) else {
      throw APXError(
        .usage, "apx cannot send \(NetworkErrorMapper.origin(plan.url)) through a proxy: its path does not form a URL",
        hint: "check the URL's path, or add its host to --noproxy to call it directly")
    }
    request.url = url.absoluteString
    // AsyncHTTPClient names no host for a unix-domain socket.
    if !request.headers.contains(name: "Host") { request.headers.add(name: "Host", value: origin.authority) }
    // One request per connection, to the relay and on to the proxy. Proxies may close a
    // connection after any answer without saying so (tinyproxy does): a request sent on a kept
    // connection as it closes would be lost, and one that is not idempotent cannot be sent again.
    request.headers.replaceOrAdd(name: "Connection", value: "close")
    let response: HTTPClientResponse
    do {
      response = try await clients.client.execute(request, deadline: deadline)
    } catch {
      if let failure = relay.failure { throw failure }
      if let failure = ProxyFailure.diagnose(error, proxy: proxy, url: plan.url) { throw failure }
      throw error
    }
    if response.status == .proxyAuthenticationRequired {
      throw ProxyFailure.error(.authenticationRequired, proxy: proxy, target: NetworkErrorMapper.origin(plan.url))
    }
    return response
  }
}

/// The version apx reports in User-Agent and `--version`.
public enum APXVersion {
  public static let current = "0.1.0"
}
