import APXTestSupport
import Foundation
import Testing

/// REST and SSE say which certificate problem failed the handshake (expired, self-signed,
/// unknown CA, name mismatch) and the flag that fixes it, never BoringSSL's text with the
/// build machine's source paths. Certificates are made by the test; servers on 127.0.0.1.
@Suite("TLS failures of REST and SSE calls", .serialized, .timeLimit(.minutes(5)))
struct HTTPTLSMessageTests {
  enum Make { case expired, selfSigned, unknownCA, nameMismatch }

  /// Starts a server with the certificate `make` asks for and calls it (REST, then SSE).
  static func calls(_ make: Make) async throws -> [APXResult] {
    let ca = try TestCertificateAuthority()
    defer { ca.remove() }
    let other = try TestCertificateAuthority(name: "another CA")
    defer { other.remove() }
    let issued: TestCertificateAuthority.Issued
    switch make {
    case .expired:
      let now = Date()
      issued = try ca.issueServer(
        "old", dnsNames: ["localhost"], ipAddresses: [[127, 0, 0, 1]],
        validity: (now.addingTimeInterval(-10 * 86_400), now.addingTimeInterval(-86_400)))
    case .selfSigned: issued = try ca.issueSelfSignedServer("self")
    case .unknownCA, .nameMismatch:
      issued = try ca.issueServer(
        "named", dnsNames: make == .nameMismatch ? ["other.example"] : ["localhost"],
        ipAddresses: make == .nameMismatch ? [] : [[127, 0, 0, 1]])
    }
    let server = try await TLSTestServer.start(certificatePath: issued.certificatePath, keyPath: issued.keyPath)
    do {
      let registry = try TrustStoreEnvironmentTests.registry(server)
      // The test CA is trusted except where the point is that it is not; the system store never counts.
      let trusted = make == .unknownCA || make == .selfSigned ? other.certificatePath : ca.certificatePath
      var results: [APXResult] = []
      for endpoint in ["secure.get", "secure.events"] {
        results.append(
          try await APXProcess.run(
            ["call", endpoint, "--registry", registry, "--retry", "3", "-v"],
            environment: ["SSL_CERT_FILE": trusted]))
      }
      await server.stop()
      return results
    } catch {
      await server.stop()
      throw error
    }
  }

  static func expect(_ results: [APXResult], says what: String, hint: String) {
    for r in results {
      #expect(r.status == 6, "\(r.stderr)")
      #expect(r.stderr.contains(what), "\(r.stderr)")
      #expect(r.stderr.contains(hint), "\(r.stderr)")
      #expect(!r.stderr.contains(".cc:") && !r.stderr.contains("CERTIFICATE_VERIFY_FAILED"), "\(r.stderr)")
      #expect(
        !r.stderr.contains("retrying") && !r.stderr.contains("reconnecting"),
        "a verdict on the certificate was retried: \(r.stderr)")
    }
  }

  @Test func anExpiredCertificate() async throws {
    Self.expect(try await Self.calls(.expired), says: "certificate has expired", hint: "--insecure")
  }

  @Test func aSelfSignedCertificate() async throws {
    Self.expect(try await Self.calls(.selfSigned), says: "certificate is self-signed", hint: "--cacert FILE")
  }

  @Test func aCertificateOfAnUnknownCA() async throws {
    Self.expect(
      try await Self.calls(.unknownCA), says: "signed by a CA apx does not trust", hint: "--cacert FILE")
  }

  @Test func aCertificateForAnotherName() async throws {
    Self.expect(
      try await Self.calls(.nameMismatch), says: "not valid for the name 127.0.0.1",
      hint: "a name its certificate holds")
  }
}
