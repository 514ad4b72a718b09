public import APXCore
import NIOSSL

/// A client certificate for mutual TLS (`--cert`, `--key`, or a registry's `tls` block): its
/// chain and private key in PEM files, and the key's passphrase when it is encrypted.
public struct ClientCertificate: Sendable, Hashable {
  /// The certificate chain, leaf first (PEM).
  public var certificatePath: String
  /// The private key (PEM), encrypted when `passphrase` is set.
  public var keyPath: String
  /// The key's passphrase, from the environment variable a registry's `tls` block names. A
  /// secret: never shown.
  public var passphrase: ClientKeyPassphrase?

  public init(certificatePath: String, keyPath: String, passphrase: ClientKeyPassphrase? = nil) {
    self.certificatePath = certificatePath
    self.keyPath = keyPath
    self.passphrase = passphrase
  }

  /// The chain and key, read now; exit 2 naming the file that cannot be used.
  func load() throws(APXError) -> (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) {
    guard let chain = try? NIOSSLCertificate.fromPEMFile(certificatePath), !chain.isEmpty else {
      throw APXError(
        .usage, "cannot read the client certificate \(certificatePath)",
        hint: "pass the certificate chain as a PEM file to --cert")
    }
    return (chain, try Self.key(keyPath, passphrase: passphrase))
  }

  /// The private key at `path`, decrypted with `passphrase` when one is given; exit 2 saying
  /// what is wrong with it.
  static func key(_ path: String, passphrase: ClientKeyPassphrase?) throws(APXError) -> NIOSSLPrivateKey {
    if let passphrase {
      let bytes = Array(passphrase.value.utf8)
      guard let key = try? NIOSSLPrivateKey(file: path, format: .pem, passphraseCallback: { set in set(bytes) }) else {
        throw APXError(
          .usage, "cannot read the client key \(path) with the passphrase in $\(passphrase.variable)",
          hint: "check that the file is a PEM private key and that $\(passphrase.variable) holds its passphrase")
      }
      return key
    }
    guard
      let key = try? NIOSSLPrivateKey(
        file: path, format: .pem, passphraseCallback: { (_: NIOSSLPassphraseSetter<[UInt8]>) in })
    else {
      throw APXError(
        .usage, "cannot read the client key \(path)",
        hint: "pass the private key of the client certificate as a PEM file; an encrypted one needs "
          + "\"client_key_passphrase_env\" in the registry's \"tls\" block, naming the variable that holds its passphrase"
      )
    }
    return key
  }
}

/// A client key's passphrase and the environment variable it came from (named in messages; the
/// value never is).
public struct ClientKeyPassphrase: Sendable, Hashable {
  public var variable: String
  public var value: String

  public init(variable: String, value: String) {
    self.variable = variable
    self.value = value
  }
}
