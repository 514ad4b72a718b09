import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// REST and SSE over TLS speak HTTP/2 when the server offers it through ALPN; `--http1.1`
/// keeps them on HTTP/1.1; `-v` shows the version of each answer.
@Suite("HTTP/2", .serialized, .timeLimit(.minutes(5)))
struct HTTP2Tests {
  @Test func restAndSSEUseHTTP2WhenOfferedAndHTTP11WhenAsked() async throws {
    let ca = try TestCertificateAuthority()
    defer { ca.remove() }
    let issued = try ca.issueServer("server", dnsNames: ["localhost"], ipAddresses: [[127, 0, 0, 1]])
    let server = try await TLSTestServer.start(
      certificatePath: issued.certificatePath, keyPath: issued.keyPath, http2: true)
    let registry = try TrustStoreEnvironmentTests.registry(server)
    let base = ["--registry", registry, "--cacert", ca.certificatePath, "-v"]
    // The server is stopped however the calls end; a call that cannot run fails the test.
    do {
      let rest = try await APXProcess.run(["call", "secure.get"] + base)
      #expect(rest.status == 0, "\(rest.stderr)")
      #expect(rest.stderr.contains("< HTTP/2.0 200"), "\(rest.stderr)")
      let sse = try await APXProcess.run(["call", "secure.events"] + base)
      #expect(sse.status == 0, "\(sse.stderr)")
      #expect(sse.stderr.contains("< HTTP/2.0 200"), "\(sse.stderr)")
      let forced = try await APXProcess.run(["call", "secure.get", "--http1.1"] + base)
      #expect(forced.status == 0, "\(forced.stderr)")
      #expect(forced.stderr.contains("< HTTP/1.1 200"), "\(forced.stderr)")
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }

  @Test func anH2COnlyServerIsSaidToBeOneAndNotRetried() async throws {
    try await withDemoServer { demo in
      let r = try await APXProcess.run(["call", "http://127.0.0.1:\(demo.grpcPort)/x", "-v"])
      #expect(r.status == 6, "\(r.stderr)")
      #expect(r.stderr.contains("speaks HTTP/2 without TLS (h2c) only"), "\(r.stderr)")
      #expect(!r.stderr.contains("(attempt 2)"), "\(r.stderr)")
    }
  }
}
