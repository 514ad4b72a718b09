/// A registry's `tls` block: the files of a TLS connection to the API's servers. At the top of a
/// registry file it applies to every environment; an environment's own block overrides it key by
/// key, and `--cacert`, `--cert` and `--key` override both.
public struct TLSFiles: Sendable, Hashable {
  /// PEM certificates trusted instead of the system store (`--cacert`).
  public var ca: String?
  /// The client certificate chain, PEM (`--cert`).
  public var clientCertificate: String?
  /// The client certificate's private key, PEM (`--key`).
  public var clientKey: String?
  /// The name of the process environment variable holding the key's passphrase. The passphrase
  /// itself is never in a registry or on the command line.
  public var clientKeyPassphraseEnv: String?

  public init(
    ca: String? = nil, clientCertificate: String? = nil, clientKey: String? = nil,
    clientKeyPassphraseEnv: String? = nil
  ) {
    self.ca = ca
    self.clientCertificate = clientCertificate
    self.clientKey = clientKey
    self.clientKeyPassphraseEnv = clientKeyPassphraseEnv
  }

  /// Whether the block names nothing.
  public var isEmpty: Bool { self == TLSFiles() }

  /// `self` with `other`'s keys where it has them.
  public func overridden(by other: TLSFiles?) -> TLSFiles {
    guard let other else { return self }
    return TLSFiles(
      ca: other.ca ?? ca, clientCertificate: other.clientCertificate ?? clientCertificate,
      clientKey: other.clientKey ?? clientKey,
      clientKeyPassphraseEnv: other.clientKeyPassphraseEnv ?? clientKeyPassphraseEnv)
  }

  /// The paths made absolute against `directory` (the registry file's folder); a path that is
  /// already absolute, or starts with `~/`, is kept.
  public func resolved(against directory: String) -> TLSFiles {
    func resolve(_ path: String?) -> String? {
      guard let path, !path.hasPrefix("/"), !path.hasPrefix("~/") else { return path }
      return (directory.isEmpty ? "." : directory) + "/" + path
    }
    return TLSFiles(
      ca: resolve(ca), clientCertificate: resolve(clientCertificate), clientKey: resolve(clientKey),
      clientKeyPassphraseEnv: clientKeyPassphraseEnv)
  }
}

extension APIDefinition {
  /// The `tls` block that applies in `environment`: the file's, overridden by the environment's,
  /// with paths relative to the registry file made absolute. Nil when neither names anything.
  public func tlsFiles(environment: String?) -> TLSFiles? {
    let own = environment.flatMap { self.environment(named: $0)?.tls }
    guard tls != nil || own != nil else { return nil }
    let merged = (tls ?? TLSFiles()).overridden(by: own)
    let slash = sourceFile.lastIndex(of: "/")
    let directory = slash.map { String(sourceFile[..<$0]) } ?? "."
    return merged.isEmpty ? nil : merged.resolved(against: directory.isEmpty ? "/" : directory)
  }
}
