import APXCore
import APXTestSupport
import Foundation
import GRPCNIOTransportHTTP2
import NIOSSL
import Testing

@testable import APXRuntime

/// REST (AsyncHTTPClient's TLS configuration) and gRPC (grpc-swift's) are built from one trust
/// rule, `TrustStore.roots(adding:)`: the system store, or exactly the certificates of
/// `--cacert`, `SSL_CERT_FILE` and `SSL_CERT_DIR`. A list must be the whole trust (NIOSSL's
/// `trustRoots`, which BoringSSL verifies on every platform), never an addition to the system
/// store (which NIOSSL hands to the platform's verifier on macOS).
@Suite("TLS trust roots")
struct TLSTrustRootsTests {
  /// Two CA certificates without their keys (nothing is verified against them here), valid to 2126.
  static let first = """
    -----BEGIN CERTIFICATE-----
    MIIBoTCCAUegAwIBAgIUYQfcKV08H1MhQeHWeyD0UgdqtA4wCgYIKoZIzj0EAwIw
    JTEjMCEGA1UEAwwaYXB4IHRydXN0IHJ1bGUgZml4dHVyZSBvbmUwIBcNMjYxMTI3
    MDczMjM5WhgPMjEyNjExMDMwNzMyMzlaMCUxIzAhBgNVBAMMGmFweCB0cnVzdCBy
    dWxlIGZpeHR1cmUgb25lMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEhCiHE34u
    s6Zzo4jJ6QK71GfjE0Ysm7967RtRcO+xkLd9A2DfIAJffYEv2J8aCvkvdU2ayWeg
    7t2zlAmt0KJWRqNTMFEwHQYDVR0OBBYEFKs9qWNKKNcDBgpKub75HpXrR5LBMB8G
    A1UdIwQYMBaAFKs9qWNKKNcDBgpKub75HpXrR5LBMA8GA1UdEwEB/wQFMAMBAf8w
    CgYIKoZIzj0EAwIDSAAwRQIhAOQNgF0FmvPGI1OhgRFvUnxtK7WROhaOFXVPRWsy
    kk4ZAiAk7aN0Q90iO0PAlFPiJjJcRyOaL9UC4yTfVBIXk1krPQ==
    -----END CERTIFICATE-----

    """
  static let second = """
    -----BEGIN CERTIFICATE-----
    MIIBoDCCAUegAwIBAgIUZ8eNibDnoMYj3aD8CspJqKy+X6cwCgYIKoZIzj0EAwIw
    JTEjMCEGA1UEAwwaYXB4IHRydXN0IHJ1bGUgZml4dHVyZSB0d28wIBcNMjYxMTI3
    MDczMjM5WhgPMjEyNjExMDMwNzMyMzlaMCUxIzAhBgNVBAMMGmFweCB0cnVzdCBy
    dWxlIGZpeHR1cmUgdHdvMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEeSIaST7d
    EANDx6OiDJiy10c2QKMBNjmWZ8al5xl2QxT2AYwj7z7g97uweQUsgYYdR9AOrBCI
    JfnTqeABrdfyvaNTMFEwHQYDVR0OBBYEFL4E6a0LUIOEIcSXxsNAtqzouEDHMB8G
    A1UdIwQYMBaAFL4E6a0LUIOEIcSXxsNAtqzouEDHMA8GA1UdEwEB/wQFMAMBAf8w
    CgYIKoZIzj0EAwIDRwAwRAIgN5E5wPMoI9JPsJwfMJhRJ8/7ruqUjO0w6b2ehaU6
    1uYCICEIW4k7urc1wPb6JLiklLmbLLqBkySCzwB/J81JkntH
    -----END CERTIFICATE-----

    """

  /// The DER bytes REST trusts, or nil for the system store: its trust roots (never `.default`
  /// with additions) and their additions, paths read as BoringSSL reads a bundle.
  static func rest(caCertificatePath: String?, trust: TrustStore) throws -> [[UInt8]]? {
    let options = HTTPSessionOptions(caCertificatePath: caCertificatePath, trust: trust)
    guard let tls = try LazyTLSConfiguration(options).configuration(), let roots = tls.trustRoots else { return nil }
    var certificates: [NIOSSLCertificate] = []
    switch roots {
    case .default: Issue.record("a list is the whole trust, not an addition to the system store")
    case .file(let path): certificates += try NIOSSLCertificate.fromPEMFile(path)
    case .certificates(let list): certificates += list
    }
    for addition in tls.additionalTrustRoots {
      switch addition {
      case .file(let path): certificates += try NIOSSLCertificate.fromPEMFile(path)
      case .certificates(let list): certificates += list
      }
    }
    return try certificates.map { try $0.toDERBytes() }
  }

  @Test func aFolderOfRehashLinksIsLeftToBoringSSLAndABundleIsAdded() throws {
    let folder = TestScratch.root.appendingPathComponent("apx-trust-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let bundle = folder.appendingPathComponent("bundle.pem").path
    try Self.second.write(toFile: bundle, atomically: true, encoding: .utf8)
    let hashed = folder.appendingPathComponent("hashed")
    try FileManager.default.createDirectory(at: hashed, withIntermediateDirectories: true)
    try Self.first.write(to: hashed.appendingPathComponent("first.pem"), atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: hashed.appendingPathComponent("0a1b2c3d.0").path, withDestinationPath: "first.pem")
    let tls = try LazyTLSConfiguration(
      HTTPSessionOptions(trust: TrustStore(bundleFile: bundle, directories: [hashed.path]))
    ).configuration()
    #expect(tls?.trustRoots == .file(hashed.path))
    #expect(tls?.additionalTrustRoots == [.file(bundle)])
    #expect(TrustStore.isRehashName("0a1b2c3d.0") && TrustStore.isRehashName("FFFFFFFF.12"))
    #expect(
      !TrustStore.isRehashName("first.pem") && !TrustStore.isRehashName("0a1b2c3.0")
        && !TrustStore.isRehashName("0a1b2c3d."))
  }

  @Test func restAndGRPCTrustTheSameCertificates() throws {
    let folder = TestScratch.root.appendingPathComponent("apx-trust-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = folder.appendingPathComponent("first.pem").path
    let second = folder.appendingPathComponent("second.pem").path
    try Self.first.write(toFile: first, atomically: true, encoding: .utf8)
    try Self.second.write(toFile: second, atomically: true, encoding: .utf8)
    let cases: [(String?, TrustStore, Int?)] = [
      (nil, TrustStore(), nil),
      (first, TrustStore(), 1),
      (nil, TrustStore(bundleFile: second), 1),
      (first, TrustStore(bundleFile: second), 2),
    ]
    for (ca, trust, count) in cases {
      let rest = try Self.rest(caCertificatePath: ca, trust: trust)
      #expect(rest?.count == count, "REST with --cacert \(ca ?? "-"), \(trust)")
      var settings = GRPCSettings(caCertificatePath: ca)
      settings.trust = trust
      let grpc = try GRPCConnection.trustRoots(settings)
      #expect(
        grpc == (rest.map { .certificates($0.map { .bytes($0, format: .der) }) } ?? .systemDefault),
        "gRPC with --cacert \(ca ?? "-"), \(trust)")
    }
  }
}
