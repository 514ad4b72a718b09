import GRPCCore
import NIOSSL

/// Why a TLS handshake with a gRPC server failed, read from the error chain grpc-swift reports
/// (an `UNAVAILABLE` whose cause is a NIOSSL/BoringSSL error). grpc-swift's own message only says
/// the connection closed before the HTTP/2 preface, which reads like a dead or plaintext server;
/// this says which side's certificate was the problem and which flag fixes it.
enum GRPCTLSProblem: Equatable {
  /// The server's certificate did not verify: unknown CA, expired, not yet valid.
  case serverCertificateUntrusted
  /// The certificate verified but does not name the host apx checked (the target or `--authority`).
  case serverNameMismatch
  /// The server wants a client certificate (mutual TLS) and none was sent.
  case clientCertificateRequired
  /// The server refused the client certificate (unknown CA, bad or expired certificate).
  case clientCertificateRejected
  /// The server did not answer in TLS at all: most likely it speaks plaintext.
  case serverNotTLS
  /// Another TLS failure (protocol version, cipher, ALPN).
  case other

  /// BoringSSL reason names (they appear in the error's description) for each problem. Alerts
  /// are what the server sent back; the rest are the client's own verdicts.
  private static let reasons: [(GRPCTLSProblem, [String])] = [
    (.clientCertificateRequired, ["ALERT_CERTIFICATE_REQUIRED", "PEER_DID_NOT_RETURN_A_CERTIFICATE"]),
    (
      .clientCertificateRejected,
      [
        "ALERT_UNKNOWN_CA", "ALERT_BAD_CERTIFICATE", "ALERT_CERTIFICATE_UNKNOWN", "ALERT_UNSUPPORTED_CERTIFICATE",
        "ALERT_CERTIFICATE_EXPIRED", "ALERT_CERTIFICATE_REVOKED", "ALERT_ACCESS_DENIED",
      ]
    ),
    (.serverCertificateUntrusted, ["CERTIFICATE_VERIFY_FAILED"]),
    (.serverNotTLS, ["WRONG_VERSION_NUMBER", "HTTP_REQUEST", "HTTPS_PROXY_REQUEST", "PACKET_LENGTH_TOO_LONG"]),
  ]

  /// The TLS problem behind `error`, or nil when no TLS error is in its cause chain.
  init?(_ error: any Error) {
    guard let problem = GRPCFailure.causeChain(error).lazy.compactMap(Self.classify).first else { return nil }
    self = problem
  }

  private static func classify(_ error: any Error) -> GRPCTLSProblem? {
    if let extra = error as? NIOSSLExtraError {
      return extra == .failedToValidateHostname ? .serverNameMismatch : .other
    }
    guard error is NIOSSLError || error is BoringSSLError else { return nil }
    let text = String(describing: error)
    return reasons.first { _, names in names.contains { text.contains($0) } }?.0 ?? .other
  }

  /// What went wrong, in place of grpc-swift's "closed before the HTTP/2 preface".
  func summary(_ target: GRPCTarget) -> String {
    switch self {
    case .serverCertificateUntrusted:
      return "TLS handshake failed: the server's certificate could not be verified (not signed by a trusted CA, "
        + "expired or not yet valid)"
    case .serverNameMismatch:
      return "TLS handshake failed: the server's certificate is not valid for the name apx checked"
    case .clientCertificateRequired:
      return "TLS handshake failed: the server requires a client certificate (mutual TLS)"
    case .clientCertificateRejected:
      return "TLS handshake failed: the server rejected the client certificate"
    case .serverNotTLS:
      return "TLS handshake failed: the server at \(target.host):\(target.port) did not answer in TLS"
    case .other:
      return "TLS handshake failed"
    }
  }

  /// How to fix it, naming apx's flags.
  func hint(_ target: GRPCTarget) -> String {
    switch self {
    case .serverCertificateUntrusted:
      return "pass the certificate of the CA that signed the server's certificate with --cacert FILE (PEM); "
        + "--insecure skips verification (for testing only)"
    case .serverNameMismatch:
      return "the certificate must name \(target.host) (or the --authority given): connect with a name it holds, "
        + "or pass --authority NAME to check that name instead"
    case .clientCertificateRequired:
      return "pass a client certificate and its key with --cert FILE --key FILE (PEM), signed by a CA the server trusts"
    case .clientCertificateRejected:
      return "the certificate given with --cert must be signed by a CA the server trusts, valid now, "
        + "and meant for client authentication"
    case .serverNotTLS:
      return "it may speak plaintext: try grpc://\(target.host):\(target.port)"
    case .other:
      return "check that the server speaks TLS with HTTP/2 (ALPN h2) on \(target.host):\(target.port); "
        + "--cacert, --cert/--key and --insecure change what apx offers"
    }
  }
}
