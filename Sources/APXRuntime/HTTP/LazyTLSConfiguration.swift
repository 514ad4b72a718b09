import APXCore
import NIOConcurrencyHelpers
import NIOSSL

/// The TLS configuration of a session's https requests, built once on first use and shared by
/// every request after it. Built late so that a call over plain http never reads certificate
/// files; nil when the defaults apply (system store, verification on).
final class LazyTLSConfiguration: Sendable {
  private let options: HTTPSessionOptions
  private let built = NIOLockedValueBox<Result<TLSConfiguration?, APXError>?>(nil)

  init(_ options: HTTPSessionOptions) { self.options = options }

  /// Whether servers' certificates are verified (not `--insecure`).
  var verifiesCertificates: Bool { !options.insecure }

  /// Whether https requests offer a client certificate.
  var hasClientCertificate: Bool { options.clientCertificate != nil }

  /// The configuration, or the usage error that reading `--cacert`, `SSL_CERT_FILE` or
  /// `SSL_CERT_DIR` gave (the same error for every request of the session).
  func configuration() throws(APXError) -> TLSConfiguration? {
    let result = built.withLockedValue { cached in
      if let cached { return cached }
      let made = Result(catching: { () throws(APXError) -> TLSConfiguration? in try Self.make(options) })
      cached = made
      return made
    }
    return try result.get()
  }

  private static func make(_ options: HTTPSessionOptions) throws(APXError) -> TLSConfiguration? {
    guard
      options.insecure || options.caCertificatePath != nil || options.trust.replacesSystemStore
        || options.clientCertificate != nil
    else { return nil }
    var tls = TLSConfiguration.makeClientConfiguration()
    if let client = try options.clientCertificate?.load() {
      tls.certificateChain = client.chain.map { .certificate($0) }
      tls.privateKey = .privateKey(client.key)
    }
    if options.insecure { tls.certificateVerification = .none }
    if let trust = try options.trust.nioTrust(adding: options.caCertificatePath) {
      tls.trustRoots = trust.roots
      tls.additionalTrustRoots = trust.additional
    }
    return tls
  }
}
