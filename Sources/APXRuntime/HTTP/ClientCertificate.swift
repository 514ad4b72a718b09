public import APXCore
import NIOSSL

/// A client certificate for mutual TLS (`--cert`, `--key`): its chain and private key in PEM
/// files.
public struct ClientCertificate: Sendable, Hashable {
  /// The certificate chain, leaf first (PEM).
  public var certificatePath: String
  /// The private key (PEM, unencrypted).
  public var keyPath: String

  public init(certificatePath: String, keyPath: String) {
    self.certificatePath = certificatePath
    self.keyPath = keyPath
  }

  /// The chain and key, read now; exit 2 naming the file that cannot be used.
  func load() throws(APXError) -> (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) {
    guard let chain = try? NIOSSLCertificate.fromPEMFile(certificatePath), !chain.isEmpty else {
      throw APXError(
        .usage, "cannot read the client certificate \(certificatePath)",
        hint: "pass the certificate chain as a PEM file to --cert")
    }
    guard let key = try? NIOSSLPrivateKey(file: keyPath, format: .pem) else {
      throw APXError(
        .usage, "cannot read the client key \(keyPath)",
        hint: "pass the unencrypted private key of --cert as a PEM file to --key "
          + "(an encrypted one can be decrypted with openssl pkey -in KEY -out PLAIN)")
    }
    return (chain, key)
  }
}
