import APXCore
import GRPCCore
import GRPCNIOTransportHTTP2
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The HTTP/2 transport type every apx gRPC call runs over.
typealias GRPCTransport = HTTP2ClientTransport.Posix

/// Makes grpc-swift's transport for a target (a `GRPCSession` owns the clients): plaintext for
/// grpc://, TLS for grpcs:// with the system trust store, `--cacert`, mutual TLS and
/// `--insecure`, and the `:authority` override.
enum GRPCConnection {
  /// grpc-swift's defaults, flush coalescing included: writes wait up to 100 µs to share a
  /// syscall. Without it a unary request's message and its end left in separate writes, a
  /// grpcio (C-core) server that had answered before the end arrived reset the stream, and
  /// NIOHTTP2's guard against reset floods closed the connection after 200 such calls; a
  /// stream of small request messages also took one `writev` each.
  ///
  /// - Parameters:
  ///   - eventLoopGroup: where the connection runs; NIO's shared group when nil.
  ///   - relay: a unix-domain socket that reaches the target through a proxy (`TunnelRelay`),
  ///     or nil to connect directly.
  static func makeTransport(
    _ target: GRPCTarget, settings: GRPCSettings, eventLoopGroup: (any EventLoopGroup)? = nil, relay: String? = nil
  ) throws -> GRPCTransport {
    var config = GRPCTransport.Config.defaults
    config.http2.authority = try authority(target, settings: settings)
    if relay != nil, config.http2.authority == nil {
      // The socket's path names nothing: the authority (and TLS server name) is the target's.
      // Over TLS an IP address cannot be the server name, and nothing else would check the
      // certificate against it: the connection's peer is the relay's socket.
      if target.useTLS, HostText.isIPAddress(target.host) {
        throw APXError(
          .usage, "\(target) goes through a proxy, and over TLS apx then needs the server's name, not its IP address",
          hint: "call grpcs://NAME:\(target.port) with a name its certificate holds (or pass --authority NAME), "
            + "or add \(target.host) to --noproxy")
      }
      config.http2.authority = Origin(host: target.host, port: target.port).authority
    }
    // apx decides about retries; a dead server should fail the call quickly rather than be redialled.
    config.backoff = .init(initial: .milliseconds(100), max: .seconds(1), multiplier: 1.6, jitter: 0.2)
    let security = try transportSecurity(target, settings: settings)
    do {
      let resolvable: any ResolvableTarget =
        relay.map { ResolvableTargets.UnixDomainSocket.unixDomainSocket(path: $0, authority: config.http2.authority) }
        ?? target.resolvable
      return try GRPCTransport(
        target: resolvable, transportSecurity: security, config: config,
        eventLoopGroup: eventLoopGroup ?? MultiThreadedEventLoopGroup.singleton)
    } catch {
      // Each file parsed on its own (see `checkPEMFiles`), so a failure here is about how they fit together.
      let hint =
        target.useTLS && settings.clientCertificatePath != nil
        ? "check that --key is the private key of the certificate given with --cert" : "check the host and port"
      throw APXError(.usage, "cannot set up a gRPC connection to \(target)", hint: hint, underlying: error)
    }
  }

  /// The `:authority` override. grpc-swift also sends it as the TLS server name (SNI), where an
  /// IP address is not allowed and the handshake would fail: over TLS, an IP authority naming the
  /// target itself is dropped (the certificate is then checked against that IP anyway), any
  /// other IP is refused with a usage error.
  static func authority(_ target: GRPCTarget, settings: GRPCSettings) throws(APXError) -> String? {
    guard let authority = settings.authority, target.useTLS else { return settings.authority }
    let host = hostPart(of: authority)
    guard HostText.isIPAddress(host) else { return authority }
    if host == target.host { return nil }
    throw APXError(
      .usage, "--authority \(authority) is an IP address, which TLS cannot send as the server name",
      hint: "over grpcs:// pass a host name (the one the server's certificate holds), or connect to \(host) directly")
  }

  /// `host` of `host`, `host:port`, `[v6]` or `[v6]:port`.
  static func hostPart(of authority: String) -> String {
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      return String(authority[authority.index(after: authority.startIndex)..<close])
    }
    if authority.filter({ $0 == ":" }).count == 1, let colon = authority.lastIndex(of: ":"),
      authority[authority.index(after: colon)...].allSatisfy(\.isNumber)
    {
      return String(authority[..<colon])
    }
    return authority
  }

  static func transportSecurity(_ target: GRPCTarget, settings: GRPCSettings) throws(APXError)
    -> GRPCTransport.TransportSecurity
  {
    guard target.useTLS else {
      if settings.clientCertificatePath != nil || settings.caCertificatePath != nil {
        throw APXError(
          .usage, "--cert/--key/--cacert need a TLS address, but \(target) is plaintext",
          hint: "use grpcs://\(target.host):\(target.port) for TLS")
      }
      return .plaintext
    }
    for path in [settings.caCertificatePath, settings.clientCertificatePath, settings.clientKeyPath].compactMap({ $0 })
    {
      guard FileManager.default.isReadableFile(atPath: path) else {
        throw APXError(.usage, "cannot read \(path)", hint: "pass the path of a PEM file")
      }
    }
    let key = try checkPEMFiles(settings)
    var tls = GRPCTransport.TransportSecurity.TLS.defaults
    if let cert = settings.clientCertificatePath, let key {
      tls.certificateChain = [.file(path: cert, format: .pem)]
      // As DER bytes: grpc-swift reads a key file without a passphrase.
      guard let der = try? key.derBytes else {
        throw APXError(
          .usage, "cannot use the client key \(settings.clientKeyPath ?? "")", hint: "pass a PEM private key")
      }
      tls.privateKey = .bytes(der, format: .der)
    }
    tls.trustRoots = try trustRoots(settings)
    if settings.insecure { tls.serverCertificateVerification = .noVerification }
    return .tls(tls)
  }

  /// The rule of `TrustStore.roots(adding:)`, as for REST: the system store, or exactly the
  /// same certificates (as DER, which grpc-swift takes as bytes).
  static func trustRoots(_ settings: GRPCSettings) throws(APXError) -> TLSConfig.TrustRootsSource {
    guard let roots = try settings.trust.roots(adding: settings.caCertificatePath) else { return .systemDefault }
    var sources: [TLSConfig.CertificateSource] = []
    for certificate in roots { sources.append(.bytes(try der(certificate), format: .der)) }
    return .certificates(sources)
  }

  /// A trusted certificate's DER bytes.
  private static func der(_ certificate: NIOSSLCertificate) throws(APXError) -> [UInt8] {
    do {
      return try certificate.toDERBytes()
    } catch {
      throw APXError(
        .usage, "a trusted CA certificate cannot be encoded",
        hint: "check the files of --cacert, SSL_CERT_FILE and SSL_CERT_DIR",
        underlying: error)
    }
  }

  /// Parses the client's PEM files up front: grpc-swift would only report "couldn't create SSL
  /// context" for any of them, without saying which file is wrong. (`--cacert` is read by
  /// `TrustStore.roots(adding:)`.) Returns the client key, decrypted.
  static func checkPEMFiles(_ settings: GRPCSettings) throws(APXError) -> NIOSSLPrivateKey? {
    if let path = settings.clientCertificatePath {
      let parsed = try? NIOSSLCertificate.fromPEMFile(path)
      if parsed?.isEmpty ?? true {
        throw APXError(
          .usage, "--cert \(path) holds no PEM certificate",
          hint: "pass a file with one or more -----BEGIN CERTIFICATE----- blocks")
      }
    }
    return try settings.clientKeyPath.map { path throws(APXError) in
      try ClientCertificate.key(path, passphrase: settings.clientKeyPassphrase)
    }
  }
}

/// Passes request bytes through unchanged: messages are encoded by
/// APXProtobuf before they reach grpc-swift.
struct RawBytesSerializer: MessageSerializer {
  func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }
}

/// Copies response bytes out of the transport's buffer; a message over `limit` bytes is
/// RESOURCE_EXHAUSTED naming both sizes, as grpc-go and grpcurl report it.
struct RawBytesDeserializer: MessageDeserializer {
  var limit = Int.max
  /// Set when a message was refused for its size: that RESOURCE_EXHAUSTED is apx's own, not a
  /// server's quota, and a retry would get the same answer.
  var refused: SharedFlag? = nil

  func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
    try serializedMessageBytes.withUnsafeBytes { bytes in
      guard bytes.count <= limit else {
        _ = refused?.set()
        throw RPCError(
          code: .resourceExhausted,
          message: "a response message of \(bytes.count) bytes is over the message size limit of \(limit) bytes"
            + " (--max-message-size)")
      }
      return Array(bytes)
    }
  }
}
