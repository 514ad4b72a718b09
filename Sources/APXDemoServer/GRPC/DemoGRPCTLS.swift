import GRPCNIOTransportHTTP2

/// TLS for the demo gRPC server, from PEM files on disk: the server's certificate chain and key,
/// and optionally a CA that client certificates must chain to (mutual TLS).
///
/// The demo never makes or ships keys itself: tests generate a throwaway CA at run time, and
/// `apx demo --grpc-tls-cert/--grpc-tls-key/--grpc-client-ca` takes the user's own files.
public struct DemoGRPCTLS: Sendable, Hashable {
  /// PEM file with the server certificate, followed by any intermediates.
  public var certificateChainPath: String
  /// PEM file with the private key of the server certificate.
  public var privateKeyPath: String
  /// PEM file of the CA(s) client certificates must be signed by; when set, a client without a
  /// valid certificate is refused during the handshake.
  public var clientCAPath: String?

  /// Makes TLS settings; `clientCAPath` turns on mutual TLS.
  public init(certificateChainPath: String, privateKeyPath: String, clientCAPath: String? = nil) {
    self.certificateChainPath = certificateChainPath
    self.privateKeyPath = privateKeyPath
    self.clientCAPath = clientCAPath
  }

  /// The transport security grpc-swift's HTTP/2 server runs with.
  var transportSecurity: HTTP2ServerTransport.Posix.TransportSecurity {
    let chain: [TLSConfig.CertificateSource] = [.file(path: certificateChainPath, format: .pem)]
    let key: TLSConfig.PrivateKeySource = .file(path: privateKeyPath, format: .pem)
    guard let clientCAPath else {
      return .tls(certificateChain: chain, privateKey: key)
    }
    // Client certificates are checked against the given CA only (not the system store); a client
    // certificate names a person or service, not a host, so there is no host name to verify.
    return .mTLS(certificateChain: chain, privateKey: key) { config in
      config.trustRoots = .certificates([.file(path: clientCAPath, format: .pem)])
      config.clientCertificateVerification = .noHostnameVerification
    }
  }
}
