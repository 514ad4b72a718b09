import APXTestSupport
import Foundation
import Testing

/// `--cert` / `--key` for REST and SSE against an HTTPS server that requires a client
/// certificate (mutual TLS), with a CA and certificates made at test time; and the flags a
/// call cannot use, refused instead of ignored.
@Suite("Client certificates", .serialized, .timeLimit(.minutes(5)))
struct ClientCertificateTests {
  static func withMutualTLSServer<T>(
    _ body: (TestCertificateAuthority, TestCertificateAuthority.Issued, String) async throws -> T
  ) async throws -> T {
    let ca = try TestCertificateAuthority()
    defer { ca.remove() }
    let issued = try ca.issueServer("server", dnsNames: ["localhost"], ipAddresses: [[127, 0, 0, 1]])
    let client = try ca.issueClient("client")
    let server = try await TLSTestServer.start(
      certificatePath: issued.certificatePath, keyPath: issued.keyPath, clientCA: ca.certificatePath)
    do {
      let result = try await body(ca, client, try TrustStoreEnvironmentTests.registry(server))
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  @Test func restAndSSEPresentTheClientCertificate() async throws {
    try await Self.withMutualTLSServer { ca, client, registry in
      let base = ["--registry", registry, "--cacert", ca.certificatePath, "--no-retry"]
      let without = try await APXProcess.run(["call", "secure.get"] + base)
      #expect(without.status == 6, "\(without.stderr)")
      #expect(without.stderr.contains("requires a client certificate"), "\(without.stderr)")
      let mtls = ["--cert", client.certificatePath, "--key", client.keyPath]
      let rest = try await APXProcess.run(["call", "secure.get"] + base + mtls)
      #expect(rest.status == 0, "\(rest.stderr)")
      #expect(rest.stdout.contains("\"tls\""), "\(rest.stdout)")
      let sse = try await APXProcess.run(["call", "secure.events"] + base + mtls)
      #expect(sse.status == 0, "\(sse.stderr)")
      #expect(sse.stdout.contains("\"n\""), "\(sse.stdout)")
    }
  }

  @Test func anUnreadableClientKeyIsAUsageError() async throws {
    try await Self.withMutualTLSServer { ca, client, registry in
      let notAKey = try temporaryFile("key.pem", "not a key\n")
      let r = try await APXProcess.run([
        "call", "secure.get", "--registry", registry, "--cacert", ca.certificatePath, "--cert",
        client.certificatePath, "--key", notAKey,
      ])
      #expect(r.status == 2, "\(r.stderr)")
      #expect(r.stderr.contains("cannot read the client key"), "\(r.stderr)")
    }
  }

  @Test func flagsACallCannotUseAreRefused() async throws {
    let ca = try TestCertificateAuthority()
    defer { ca.remove() }
    let client = try ca.issueClient("client")
    let plain = try await APXProcess.run([
      "call", "http://127.0.0.1:9/x", "--cert", client.certificatePath, "--key", client.keyPath,
    ])
    #expect(plain.status == 2, "\(plain.stderr)")
    #expect(plain.stderr.contains("needs an https:// URL"), "\(plain.stderr)")
    for flags in [["--authority", "example.com"], ["--max-message-size", "100"], ["--emit-defaults"]] {
      let r = try await APXProcess.run(["call", "http://127.0.0.1:9/x"] + flags)
      #expect(r.status == 2, "\(flags): \(r.stderr)")
      #expect(r.stderr.contains("applies to gRPC"), "\(flags): \(r.stderr)")
      #expect(r.stderr.contains("this is a REST call"), "\(flags): \(r.stderr)")
    }
    let grpc = try await APXProcess.run(["call", "grpc://127.0.0.1:9/pkg.Service/Method", "--http1.1"])
    #expect(grpc.status == 2, "\(grpc.stderr)")
    #expect(grpc.stderr.contains("HTTP/2 only"), "\(grpc.stderr)")
  }
}
