import APXCore
import NIOCore
import NIOSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed TLS handshake of an https request (REST, SSE, JSON-RPC, token and description
/// fetches), said as the problem it is and the flag that fixes it. BoringSSL's own text names
/// only `CERTIFICATE_VERIFY_FAILED`, with a source path of the machine that built apx.
///
/// The classification is gRPC's (`GRPCTLSProblem`); a certificate that did not verify is
/// looked at (`PeerCertificateProbe`) to tell expired from self-signed from an unknown CA.
struct HTTPTLSFailure: Error, Sendable {
  enum Problem: Sendable, Equatable {
    case expired
    case notYetValid
    case selfSigned
    case unknownCA
    /// Not verified, and the certificate could not be looked at to say why.
    case untrusted
    case nameMismatch
    case clientCertificateRequired
    case clientCertificateRejected
    case notTLS
    case other
  }

  var problem: Problem
  /// `scheme://host:port` of the request.
  var target: String
  var host: String
  var port: Int
  /// The NIOSSL error, for the retry decision; never shown (its text holds build paths).
  var underlying: any Error

  /// The TLS failure behind `error` of a request to `url`, or nil when `error` is none.
  ///
  /// - Parameter probe: whether an untrusted certificate may be looked at with a direct
  ///   connection (not behind a proxy, where that connection could reach another server).
  static func diagnose(
    _ error: any Error, url: String, on eventLoop: any EventLoop, deadline: NIODeadline, probe: Bool = true
  ) async -> HTTPTLSFailure? {
    guard let classified = GRPCTLSProblem(error), let parsed = URL(string: url), let host = parsed.host else {
      return nil
    }
    let port = parsed.port ?? (parsed.scheme?.lowercased() == "http" ? 80 : 443)
    var failure = HTTPTLSFailure(
      problem: .other, target: NetworkErrorMapper.origin(url), host: host, port: port, underlying: error)
    switch classified {
    case .serverCertificateUntrusted where !probe:
      failure.problem = .untrusted
    case .serverCertificateUntrusted:
      // Looking costs a second handshake, made only after this one failed; bounded by the call's deadline.
      let chain = await PeerCertificateProbe.chain(
        host: host, port: port, on: eventLoop, deadline: min(deadline, .now() + .seconds(10)))
      failure.problem = chain.map(Self.problem(of:)) ?? .untrusted
    case .serverNameMismatch: failure.problem = .nameMismatch
    case .clientCertificateRequired: failure.problem = .clientCertificateRequired
    case .clientCertificateRejected: failure.problem = .clientCertificateRejected
    case .serverNotTLS: failure.problem = .notTLS
    case .other: failure.problem = .other
    }
    return failure
  }

  /// Why a chain that did not verify failed: the server's certificate's dates first, then
  /// whether it signed itself; otherwise its issuer is not trusted.
  static func problem(of chain: [NIOSSLCertificate]) -> Problem {
    guard let leaf = chain.first else { return .untrusted }
    let now = time(nil)
    if leaf.notValidAfter < now { return .expired }
    if leaf.notValidBefore > now { return .notYetValid }
    if chain.count == 1, let der = try? leaf.toDERBytes(), PeerCertificateProbe.isSelfIssued(der) {
      return .selfSigned
    }
    return .unknownCA
  }

  /// What apx reports: what happened and which flag changes it, without BoringSSL's text.
  var apxError: APXError {
    let insecure = "--insecure skips verification (for testing only)"
    let (what, hint): (String, String) =
      switch problem {
      case .expired:
        ("the server's certificate has expired", "the server must renew it; \(insecure)")
      case .notYetValid:
        ("the server's certificate is not valid yet", "check this machine's clock; \(insecure)")
      case .selfSigned:
        (
          "the server's certificate is self-signed",
          "trust it with --cacert FILE (that certificate, PEM); \(insecure)"
        )
      case .unknownCA:
        (
          "the server's certificate is signed by a CA apx does not trust",
          "pass that CA's certificate with --cacert FILE (PEM), or name it in SSL_CERT_FILE; \(insecure)"
        )
      case .untrusted:
        (
          "the server's certificate could not be verified (not signed by a trusted CA, expired or not yet valid)",
          "pass the certificate of the CA that signed it with --cacert FILE (PEM); \(insecure)"
        )
      case .nameMismatch:
        (
          "the server's certificate is not valid for the name \(host)",
          "call the server by a name its certificate holds; \(insecure)"
        )
      case .clientCertificateRequired:
        (
          "the server requires a client certificate (mutual TLS)",
          "pass a client certificate and its key with --cert FILE --key FILE (PEM), signed by a CA the server trusts"
        )
      case .clientCertificateRejected:
        (
          "the server rejected the client certificate",
          "the certificate given with --cert must be signed by a CA the server trusts, valid now, "
            + "and meant for client authentication"
        )
      case .notTLS:
        ("\(target) did not answer in TLS", "it may speak plaintext: try http://\(host):\(port)")
      case .other:
        (
          "the TLS handshake failed",
          "check that the URL should use https://, or pass --cacert FILE for a private CA; \(insecure)"
        )
      }
    var error = APXError(.network, "TLS failed with \(target): \(what)", hint: hint)
    if problem == .other, let reasons = Self.reasons(in: String(describing: underlying)) { error.cause = reasons }
    return error
  }

  /// BoringSSL's reason names in an error's text (`NO_SHARED_CIPHER`), without the source
  /// paths and line numbers around them.
  static func reasons(in text: String) -> String? {
    var names: [String] = []
    for word in text.split(whereSeparator: { !($0.isUppercase || $0.isNumber || $0 == "_") }) {
      guard word.count >= 6, word.contains("_"), word.first?.isUppercase == true, word.last != "_" else { continue }
      let name = String(word)
      if !names.contains(name) { names.append(name) }
    }
    return names.isEmpty ? nil : names.joined(separator: ", ")
  }
}
