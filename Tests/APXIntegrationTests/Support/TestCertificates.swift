import APXTestSupport
import Crypto
import Foundation
import X509

/// A throwaway certificate authority made at test time (no key is ever committed), writing
/// PEM files into a temporary directory of its own: the CA's certificate, and leaf
/// certificates it signs for servers (with DNS and IP subject alternative names) and clients.
struct TestCertificateAuthority {
  /// A certificate and its private key, as PEM files.
  struct Issued {
    var certificatePath: String
    var keyPath: String
  }

  let directory: URL
  let name: String
  private let key: P256.Signing.PrivateKey
  private let certificate: Certificate
  /// The CA certificate (PEM): what a client passes with `--cacert`, or a server trusts for mTLS.
  let certificatePath: String

  /// Valid from an hour ago to a day ahead, so clock skew between steps never matters.
  private static var validity: (Date, Date) {
    let now = Date()
    return (now.addingTimeInterval(-3600), now.addingTimeInterval(86_400))
  }

  /// Makes a self-signed CA and writes its certificate.
  init(name: String = "apx test CA") throws {
    directory = TestScratch.root.appendingPathComponent("apx-pki-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    self.name = name
    // Locals, not properties: the extension builder closure cannot capture a half-built self.
    let key = P256.Signing.PrivateKey()
    let subject = try DistinguishedName { CommonName(name) }
    let (notBefore, notAfter) = Self.validity
    let certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
      notValidBefore: notBefore, notValidAfter: notAfter, issuer: subject, subject: subject,
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        SubjectKeyIdentifier(hash: .init(key.publicKey))
      },
      issuerPrivateKey: .init(key))
    self.key = key
    self.certificate = certificate
    certificatePath = try Self.write(try certificate.serializeAsPEM().pemString, to: directory, as: "ca.pem")
  }

  /// A server certificate for `dnsNames` and IPv4 `ipAddresses` (e.g. `[127, 0, 0, 1]`).
  /// - Parameter validity: when the certificate is valid (default: from an hour ago to a day ahead).
  func issueServer(
    _ file: String, dnsNames: [String], ipAddresses: [[UInt8]] = [], validity: (Date, Date)? = nil
  ) throws -> Issued {
    var names: [GeneralName] = dnsNames.map { .dnsName($0) }
    // `.init` builds the ASN1OctetString without naming SwiftASN1, which this target does not import.
    names += ipAddresses.map { .ipAddress(.init(contentBytes: $0[...])) }
    return try issue(
      file, commonName: dnsNames.first ?? "apx test server", altNames: names, usage: .serverAuth,
      validity: validity ?? Self.validity)
  }

  /// A server certificate for 127.0.0.1 signed by its own key (no CA).
  func issueSelfSignedServer(_ file: String) throws -> Issued {
    let key = P256.Signing.PrivateKey()
    let name = try DistinguishedName { CommonName("apx self-signed server") }
    let (notBefore, notAfter) = Self.validity
    let certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
      notValidBefore: notBefore, notValidAfter: notAfter, issuer: name, subject: name,
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(KeyUsage(digitalSignature: true))
        try ExtendedKeyUsage([.serverAuth])
        SubjectAlternativeNames([.ipAddress(.init(contentBytes: [127, 0, 0, 1][...]))])
      },
      issuerPrivateKey: .init(key))
    return Issued(
      certificatePath: try Self.write(try certificate.serializeAsPEM().pemString, to: directory, as: "\(file).pem"),
      keyPath: try Self.write(key.pemRepresentation, to: directory, as: "\(file)-key.pem"))
  }

  /// A client certificate for mutual TLS.
  func issueClient(_ file: String, commonName: String = "apx test client") throws -> Issued {
    try issue(file, commonName: commonName, altNames: [], usage: .clientAuth, validity: Self.validity)
  }

  private func issue(
    _ file: String, commonName: String, altNames: [GeneralName], usage: ExtendedKeyUsage.Usage,
    validity: (Date, Date)
  ) throws -> Issued {
    let leafKey = P256.Signing.PrivateKey()
    let caKeyIdentifier = SubjectKeyIdentifier(hash: .init(key.publicKey)).keyIdentifier
    let (notBefore, notAfter) = validity
    let leaf = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(leafKey.publicKey),
      notValidBefore: notBefore, notValidAfter: notAfter,
      issuer: certificate.subject, subject: try DistinguishedName { CommonName(commonName) },
      signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.notCertificateAuthority)
        Critical(KeyUsage(digitalSignature: true))
        try ExtendedKeyUsage([usage])
        AuthorityKeyIdentifier(keyIdentifier: caKeyIdentifier)
        if !altNames.isEmpty { SubjectAlternativeNames(altNames) }
      },
      issuerPrivateKey: .init(key))
    return Issued(
      certificatePath: try Self.write(try leaf.serializeAsPEM().pemString, to: directory, as: "\(file).pem"),
      keyPath: try Self.write(leafKey.pemRepresentation, to: directory, as: "\(file)-key.pem"))
  }

  private static func write(_ pem: String, to directory: URL, as name: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data((pem + "\n").utf8).write(to: url)
    return url.path
  }

  /// Removes the directory with every file written.
  func remove() {
    try? FileManager.default.removeItem(at: directory)
  }
}
