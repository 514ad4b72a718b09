public import APXCore
import NIOSSL

/// A client certificate for mutual TLS: its chain and private key in PEM files, and the
/// passphrase of an encrypted key (read from the environment variable the registry's `tls`
/// block names, never from the command line).
public struct ClientCertificate: Sendable, Hashable {
  /// The certificate chain, leaf first (PEM).
  public var certificatePath: String
  /// The private key (PEM).
  public var keyPath: String
  /// The key's passphrase, when the key is encrypted.
  public var passphrase: String?

  public init(certificatePath: String, keyPath: String, passphrase: String? = nil) {
    self.certificatePath = certificatePath
    self.keyPath = keyPath
    self.passphrase = passphrase
  }

  /// The chain and key, read now; exit 2 naming the file that cannot be used.
  func load() throws(APXError) -> (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) {
    guard let chain = try? NIOSSLCertificate.fromPEMFile(certificatePath), !chain.isEmpty else {
      throw APXError(
        .usage, "cannot read the client certificate \(certificatePath)",
        hint: "pass the certificate chain as a PEM file to --cert (or the tls block's client_cert)")
    }
    let key: NIOSSLPrivateKey
    do {
      if let passphrase {
        key = try NIOSSLPrivateKey(file: keyPath, format: .pem) { $0(Array(passphrase.utf8)) }
      } else {
        key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
      }
    } catch {
      throw APXError(
        .usage, "cannot read the client key \(keyPath)",
        hint: passphrase == nil
          ? "pass the private key as a PEM file to --key; an encrypted key needs the tls block's key_passphrase_env"
          : "check the file, and that the passphrase in the tls block's key_passphrase_env variable is the key's")
    }
    return (chain, key)
  }
}
