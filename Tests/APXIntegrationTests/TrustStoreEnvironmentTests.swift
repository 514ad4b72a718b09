import APXCore
import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `SSL_CERT_FILE` and `SSL_CERT_DIR` choose the CA certificates apx trusts
/// for REST, SSE and gRPC, as curl, Python and OpenSSL tools do; `--cacert` adds to them. The
/// CA is made at test time; the servers listen on 127.0.0.1 port 0.
@Suite("SSL_CERT_FILE / SSL_CERT_DIR", .serialized, .timeLimit(.minutes(5)))
struct TrustStoreEnvironmentTests {
  /// A registry for the HTTPS test server: a REST endpoint and an SSE one, at `host` (the server's
  /// certificate holds 127.0.0.1 and localhost; through a proxy apx needs the name).
  static func registry(_ server: TLSTestServer, host: String = "127.0.0.1") throws -> String {
    try TestRegistry.make(
      """
      {"api": "secure", "environments": {"demo": {"base_url": "https://\(host):\(server.port)"}},
       "endpoints": {"get": {"kind": "rest", "path": "/thing"},
                     "events": {"kind": "sse", "path": "/events", "until_event": ["done"]}}}
      """)
  }

  static func withServer<T>(
    host: String = "127.0.0.1", _ body: (TestCertificateAuthority, TLSTestServer, String) async throws -> T
  ) async throws -> T {
    let ca = try TestCertificateAuthority()
    defer { ca.remove() }
    let issued = try ca.issueServer("server", dnsNames: ["localhost"], ipAddresses: [[127, 0, 0, 1]])
    let server = try await TLSTestServer.start(certificatePath: issued.certificatePath, keyPath: issued.keyPath)
    do {
      let result = try await body(ca, server, try registry(server, host: host))
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  @Test func restAndSSETrustSSLCertFile() async throws {
    try await Self.withServer { ca, _, registry in
      let untrusted = try await APXProcess.run(["call", "secure.get", "--registry", registry, "--no-retry"])
      #expect(untrusted.status == 6, "\(untrusted.stderr)")
      let env = ["SSL_CERT_FILE": ca.certificatePath]
      let rest = try await APXProcess.run(["call", "secure.get", "--registry", registry], environment: env)
      #expect(rest.status == 0, "\(rest.stderr)")
      #expect(rest.stdout.contains("\"tls\""), "\(rest.stdout)")
      let sse = try await APXProcess.run(["call", "secure.events", "--registry", registry], environment: env)
      #expect(sse.status == 0, "\(sse.stderr)")
      #expect(sse.stdout.contains("\"n\""), "\(sse.stdout)")
    }
  }

  @Test func restTrustsSSLCertDir() async throws {
    try await Self.withServer { ca, _, registry in
      let dir = TestScratch.root.appendingPathComponent("apx-certdir-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: dir) }
      try "not a certificate\n".write(to: dir.appendingPathComponent("README"), atomically: true, encoding: .utf8)
      try FileManager.default.copyItem(atPath: ca.certificatePath, toPath: dir.appendingPathComponent("corp.pem").path)
      let r = try await APXProcess.run(
        ["call", "secure.get", "--registry", registry], environment: ["SSL_CERT_DIR": dir.path])
      #expect(r.status == 0, "\(r.stderr)")
    }
  }

  /// A folder of `c_rehash` links (`update-ca-certificates` makes /etc/ssl/certs so) is searched
  /// by them, as OpenSSL and curl search it: the CA is found through the link named by its
  /// subject's hash (`openssl x509 -subject_hash`), and not without one. Skipped, saying why,
  /// where the openssl tool is missing.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs /usr/bin/openssl"))
  func restAndWebSocketsSearchAHashedSSLCertDir() async throws {
    try await Self.withServer { ca, _, registry in
      let hash = try await ChildProcess.run(
        "/usr/bin/openssl", ["x509", "-subject_hash", "-noout", "-in", ca.certificatePath], environment: [:],
        timeout: 30)
      let name = String(decoding: hash.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(name.count == 8, "\(name)")
      let dir = TestScratch.root.appendingPathComponent("apx-hashed-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: dir) }
      try FileManager.default.copyItem(atPath: ca.certificatePath, toPath: dir.appendingPathComponent("corp.pem").path)
      // A link that names another certificate: the folder is a hashed one, and the CA not yet in it.
      try FileManager.default.createSymbolicLink(
        atPath: dir.appendingPathComponent(name == "00000000" ? "00000001.0" : "00000000.0").path,
        withDestinationPath: "corp.pem")
      let unlinked = try await APXProcess.run(
        ["call", "secure.get", "--registry", registry, "--no-retry"], environment: ["SSL_CERT_DIR": dir.path])
      #expect(unlinked.status == 6, "\(unlinked.stderr)")
      try FileManager.default.createSymbolicLink(
        atPath: dir.appendingPathComponent("\(name).0").path, withDestinationPath: "corp.pem")
      let linked = try await APXProcess.run(
        ["call", "secure.get", "--registry", registry], environment: ["SSL_CERT_DIR": dir.path])
      #expect(linked.status == 0, "\(linked.stderr)")
    }
  }

  @Test func cacertAddsToSSLCertFile() async throws {
    try await Self.withServer { ca, _, registry in
      let other = try TestCertificateAuthority(name: "another CA")
      defer { other.remove() }
      let env = ["SSL_CERT_FILE": other.certificatePath]
      let without = try await APXProcess.run(
        ["call", "secure.get", "--registry", registry, "--no-retry"], environment: env)
      #expect(without.status == 6, "the other CA replaced the system store: \(without.stderr)")
      let with = try await APXProcess.run(
        ["call", "secure.get", "--registry", registry, "--cacert", ca.certificatePath], environment: env)
      #expect(with.status == 0, "\(with.stderr)")
    }
  }

  @Test func anUnreadableSSLCertFileIsAUsageError() async throws {
    let r = try await APXProcess.run(
      ["call", "books.capabilities.get", "--base-url", "https://127.0.0.1:9"],
      environment: ["SSL_CERT_FILE": "/nonexistent/ca.pem"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("SSL_CERT_FILE"), "\(r.stderr)")
  }

  @Test func grpcTrustsSSLCertFile() async throws {
    let ca = try TestCertificateAuthority()
    defer { ca.remove() }
    let issued = try ca.issueServer("server", dnsNames: ["localhost"], ipAddresses: [[127, 0, 0, 1]])
    let server = try await DemoGRPCServer.start(
      host: "127.0.0.1", port: 0,
      tls: DemoGRPCTLS(certificateChainPath: issued.certificatePath, privateKeyPath: issued.keyPath))
    do {
      let r = try await APXProcess.run(
        [
          "call", "classnotes.lessons.get", "id=les_0001", "--base-url", "grpcs://127.0.0.1:\(server.port)",
          "--no-retry",
        ],
        environment: ["SSL_CERT_FILE": ca.certificatePath])
      #expect(r.status == 0, "\(r.stderr)")
      await server.stop()
    } catch {
      await server.stop()
      throw error
    }
  }
}
