public import APXCore

/// Transport and output settings of the gRPC calls of one run (from the
/// command line: `--authority`, `--emit-defaults`, `--max-message-size`,
/// `--cacert`, `--cert`/`--key`, `--insecure`).
public struct GRPCSettings: Sendable, Hashable {
  /// The `:authority` pseudo-header (and TLS server name) to send instead of the target's host.
  public var authority: String?
  /// Print fields that hold their default value (`0`, `""`, `[]`) in responses.
  public var emitDefaults: Bool
  /// Largest message, in bytes, sent or accepted (grpc-swift's default is 4 MiB).
  public var maxMessageSize: Int?
  /// 4 MiB, grpc-swift's and most servers' limit, when `--max-message-size` is not given.
  public static let defaultMaxMessageSize = 4 * 1_048_576
  /// Skip TLS certificate verification.
  public var insecure: Bool
  /// Trust the CA certificates in this PEM file: with `trust`'s, instead of the system store
  /// (`TrustStore.roots(adding:)`).
  public var caCertificatePath: String?
  /// The system store, or what `SSL_CERT_FILE` / `SSL_CERT_DIR` name.
  public var trust = TrustStore()
  /// Client certificate chain (PEM) for mutual TLS.
  public var clientCertificatePath: String?
  /// Private key (PEM) of the client certificate.
  public var clientKeyPath: String?
  /// The key's passphrase, when it is encrypted (a registry's `tls` block names its variable).
  public var clientKeyPassphrase: ClientKeyPassphrase?
  /// Which targets go through which proxy (`https_proxy`, as grpc-go reads it, for grpc:// too).
  public var proxy = ProxyRules()
  /// Seconds to connect to a proxy and have it open a tunnel.
  public var connectTimeout: Double = 10

  /// Makes settings; the defaults match a plain `apx call`.
  public init(
    authority: String? = nil, emitDefaults: Bool = false, maxMessageSize: Int? = nil, insecure: Bool = false,
    caCertificatePath: String? = nil, clientCertificatePath: String? = nil, clientKeyPath: String? = nil
  ) {
    self.authority = authority
    self.emitDefaults = emitDefaults
    self.maxMessageSize = maxMessageSize
    self.insecure = insecure
    self.caCertificatePath = caCertificatePath
    self.clientCertificatePath = clientCertificatePath
    self.clientKeyPath = clientKeyPath
  }

  /// Checks values that grpc-swift would otherwise reject late or trap on.
  public func validate() throws(APXError) {
    if let size = maxMessageSize, size < 1 {
      throw APXError(.usage, "--max-message-size must be a positive number of bytes, got \(size)")
    }
    if (clientCertificatePath == nil) != (clientKeyPath == nil) {
      throw APXError(
        .usage, "mutual TLS needs both --cert and --key",
        hint: "pass the client certificate chain (PEM) with --cert and its private key (PEM) with --key")
    }
    if let authority, authority.isEmpty || authority.contains(where: { $0 == " " || $0 == "/" }) {
      throw APXError(.usage, "--authority \"\(authority)\" is not a valid host[:port]")
    }
  }
}
