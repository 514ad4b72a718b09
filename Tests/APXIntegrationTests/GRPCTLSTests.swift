import APXCore
import APXDemoServer
import Foundation
import Testing

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

/// The real `apx` binary against the demo gRPC server over TLS and mutual TLS, with a CA
/// generated for each test (see `TestCertificateAuthority`): trust via --cacert, --insecure,
/// client certificates, the :authority override as the TLS server name, and the hints for a
/// plaintext/TLS mix-up.
///
/// Serialized: each test starts one to four `apx` processes; run side by side they would add a
/// burst of process launches to a full parallel run on 2 cores, slowing every other test.
@Suite("apx call / list --grpc over TLS", .serialized, .timeLimit(.minutes(5)))
struct GRPCTLSTests {
  /// A CA, a server certificate for 127.0.0.1 and localhost, and a client certificate.
  struct PKI {
    let ca: TestCertificateAuthority
    let server: TestCertificateAuthority.Issued
    let client: TestCertificateAuthority.Issued

    init() throws {
      ca = try TestCertificateAuthority()
      server = try ca.issueServer("server", dnsNames: ["localhost"], ipAddresses: [[127, 0, 0, 1]])
      client = try ca.issueClient("client")
    }
  }

  /// Runs `body` with a CA and a demo gRPC server using `tls` (made from the CA's files).
  static func withTLSServer<T>(
    _ tls: (PKI) throws -> DemoGRPCTLS?, _ body: (PKI, DemoGRPCServer) async throws -> T
  ) async throws -> T {
    let pki = try PKI()
    defer { pki.ca.remove() }
    let server = try await DemoGRPCServer.start(host: "127.0.0.1", port: 0, tls: try tls(pki))
    do {
      let result = try await body(pki, server)
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  static func serverTLS(_ pki: PKI) -> DemoGRPCTLS {
    DemoGRPCTLS(certificateChainPath: pki.server.certificatePath, privateKeyPath: pki.server.keyPath)
  }

  static func mutualTLS(_ pki: PKI) -> DemoGRPCTLS {
    DemoGRPCTLS(
      certificateChainPath: pki.server.certificatePath, privateKeyPath: pki.server.keyPath,
      clientCAPath: pki.ca.certificatePath)
  }

  /// `apx call classnotes.lessons.get id=les_0001` at `baseURL` with extra flags; no retries, so
  /// a failure is reported after one attempt.
  static func getLesson(_ baseURL: String, _ flags: [String] = []) async throws -> APXResult {
    try await APXProcess.run(
      ["call", "classnotes.lessons.get", "id=les_0001", "--base-url", baseURL, "--no-retry"] + flags)
  }

  @Test func unaryCallOverTLSTrustsTheGivenCA() async throws {
    try await Self.withTLSServer(Self.serverTLS) { pki, server in
      let r = try await Self.getLesson("grpcs://127.0.0.1:\(server.port)", ["--cacert", pki.ca.certificatePath])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try JSONParser.parse(r.stdout)["id"] == .string("les_0001"))
      #expect(!r.stderr.contains("warning"))
    }
  }

  /// `grpcs://` is an ad-hoc call over TLS, schema by reflection, with the same TLS flags.
  @Test func adHocGRPCSURLOverTLSWithReflection() async throws {
    try await Self.withTLSServer(Self.serverTLS) { pki, server in
      let url = "grpcs://127.0.0.1:\(server.port)/classnotes.v1.ClassNotesAPI/GetLesson"
      let r = try await APXProcess.run(["call", url, "id=les_0001", "--cacert", pki.ca.certificatePath, "--no-retry"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try JSONParser.parse(r.stdout)["id"] == .string("les_0001"))
      let untrusted = try await APXProcess.run(["call", url, "id=les_0001", "--no-retry"])
      #expect(untrusted.status == 78 && untrusted.stderr.contains("--cacert"), "\(untrusted.stderr)")
    }
  }

  @Test func untrustedServerCertificateIsAClearTLSError() async throws {
    try await Self.withTLSServer(Self.serverTLS) { _, server in
      let r = try await Self.getLesson("grpcs://127.0.0.1:\(server.port)")
      #expect(r.status == 78, "\(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(r.stderr.contains("UNAVAILABLE"))
      #expect(r.stderr.contains("certificate"), "\(r.stderr)")
      #expect(r.stderr.contains("--cacert"), "\(r.stderr)")
      #expect(!r.stderr.contains("speak plaintext"), "a TLS server is not a plaintext one: \(r.stderr)")
    }
  }

  /// A certificate that fails verification fails the same way on every attempt: no protocol retries it.
  /// The TLS server is the demo gRPC one; REST and SSE fail in its handshake too.
  @Test func certificateVerifyFailureIsNotRetriedByAnyProtocol() async throws {
    try await Self.withTLSServer(Self.serverTLS) { _, server in
      let grpc = try await APXProcess.run([
        "call", "classnotes.lessons.get", "id=les_0001", "--base-url", "grpcs://127.0.0.1:\(server.port)",
        "--retry", "4",
      ])
      #expect(grpc.status == 78, "\(grpc.stderr)")
      #expect(!grpc.stderr.contains("retrying"), "\(grpc.stderr)")
      // --token-stdin replaces the books API's OAuth2, so the call itself meets the certificate.
      let rest = try await APXProcess.run(
        [
          "call", "books.flaky.get", "key=tls", "--base-url", "https://127.0.0.1:\(server.port)", "--retry", "4",
          "--token-stdin",
        ], stdin: Data("token".utf8))
      #expect(rest.status == 6, "\(rest.stderr)")
      #expect(rest.stderr.contains("TLS"), "\(rest.stderr)")
      #expect(!rest.stderr.contains("retrying"), "\(rest.stderr)")
      let sse = try await APXProcess.run(
        [
          "call", "books.imports.watch", "job_id=job_x", "--base-url", "https://127.0.0.1:\(server.port)",
          "--timeout", "60", "--token-stdin",
        ], stdin: Data("token".utf8))
      #expect(sse.status == 6, "\(sse.stderr)")
      #expect(!sse.stderr.contains("reconnecting"), "\(sse.stderr)")
    }
  }

  @Test func insecureSkipsVerificationAndWarns() async throws {
    try await Self.withTLSServer(Self.serverTLS) { _, server in
      let r = try await Self.getLesson("grpcs://127.0.0.1:\(server.port)", ["--insecure"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try JSONParser.parse(r.stdout)["id"] == .string("les_0001"))
      #expect(r.stderr.contains("warning: --insecure"))
    }
  }

  @Test func mutualTLSRejectsAClientWithoutACertificate() async throws {
    try await Self.withTLSServer(Self.mutualTLS) { pki, server in
      let r = try await Self.getLesson("grpcs://127.0.0.1:\(server.port)", ["--cacert", pki.ca.certificatePath])
      #expect(r.status == 78, "\(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(r.stderr.contains("client certificate"), "\(r.stderr)")
      #expect(r.stderr.contains("--cert"), "\(r.stderr)")
    }
  }

  @Test func mutualTLSAcceptsTheClientCertificate() async throws {
    try await Self.withTLSServer(Self.mutualTLS) { pki, server in
      let r = try await Self.getLesson(
        "grpcs://127.0.0.1:\(server.port)",
        ["--cacert", pki.ca.certificatePath, "--cert", pki.client.certificatePath, "--key", pki.client.keyPath])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try JSONParser.parse(r.stdout)["id"] == .string("les_0001"))
    }
  }

  @Test func mutualTLSRejectsACertificateFromAnotherCA() async throws {
    try await Self.withTLSServer(Self.mutualTLS) { pki, server in
      let stranger = try TestCertificateAuthority(name: "someone else's CA")
      defer { stranger.remove() }
      let client = try stranger.issueClient("client")
      let r = try await Self.getLesson(
        "grpcs://127.0.0.1:\(server.port)",
        ["--cacert", pki.ca.certificatePath, "--cert", client.certificatePath, "--key", client.keyPath])
      #expect(r.status == 78, "\(r.stderr)")
      #expect(r.stderr.contains("client certificate"), "\(r.stderr)")
    }
  }

  @Test func plaintextTargetAgainstATLSServerHintsAtGRPCS() async throws {
    try await Self.withTLSServer(Self.serverTLS) { _, server in
      let r = try await Self.getLesson("grpc://127.0.0.1:\(server.port)")
      #expect(r.status == 78, "\(r.stderr)")
      #expect(r.stderr.contains("may speak TLS: try grpcs://127.0.0.1:\(server.port)"), "\(r.stderr)")
    }
  }

  @Test func tlsTargetAgainstAPlaintextServerHintsAtGRPC() async throws {
    try await Self.withTLSServer({ _ in nil }) { pki, server in
      let r = try await Self.getLesson("grpcs://127.0.0.1:\(server.port)", ["--cacert", pki.ca.certificatePath])
      #expect(r.status == 78, "\(r.stderr)")
      #expect(r.stderr.contains("may speak plaintext: try grpc://127.0.0.1:\(server.port)"), "\(r.stderr)")
    }
  }

  @Test func authorityOverrideIsTheTLSServerName() async throws {
    // The certificate names only demo.test: connecting to 127.0.0.1 verifies only when
    // --authority makes demo.test the name checked (and sent as SNI and :authority).
    try await Self.withTLSServer({ pki in
      let named = try pki.ca.issueServer("demo-test", dnsNames: ["demo.test"])
      return DemoGRPCTLS(certificateChainPath: named.certificatePath, privateKeyPath: named.keyPath)
    }) { pki, server in
      let base = "grpcs://127.0.0.1:\(server.port)"
      let named = try await Self.getLesson(base, ["--cacert", pki.ca.certificatePath, "--authority", "demo.test"])
      #expect(named.status == 0, "\(named.stderr)")
      #expect(try JSONParser.parse(named.stdout)["id"] == .string("les_0001"))

      let withPort = try await Self.getLesson(
        base, ["--cacert", pki.ca.certificatePath, "--authority", "demo.test:\(server.port)"])
      #expect(withPort.status == 0, "\(withPort.stderr)")

      let unnamed = try await Self.getLesson(base, ["--cacert", pki.ca.certificatePath])
      #expect(unnamed.status == 78, "\(unnamed.stderr)")
      #expect(unnamed.stderr.contains("--authority"), "\(unnamed.stderr)")
    }
  }

  @Test func anIPAuthorityOverTLSIsNotSentAsTheServerName() async throws {
    try await Self.withTLSServer(Self.serverTLS) { pki, server in
      let base = "grpcs://127.0.0.1:\(server.port)"
      // The target's own IP: dropped, and the certificate's IP name is checked as without it.
      let own = try await Self.getLesson(base, ["--cacert", pki.ca.certificatePath, "--authority", "127.0.0.1"])
      #expect(own.status == 0, "\(own.stderr)")
      let other = try await Self.getLesson(base, ["--cacert", pki.ca.certificatePath, "--authority", "10.0.0.7"])
      #expect(other.status == 2, "\(other.stderr)")
      #expect(other.stderr.contains("is an IP address"), "\(other.stderr)")
    }
  }

  @Test func listGRPCOverTLSUsesTheCACert() async throws {
    try await Self.withTLSServer(Self.serverTLS) { pki, server in
      let address = "grpcs://127.0.0.1:\(server.port)"
      let r = try await APXProcess.run(["list", "--grpc", address, "--cacert", pki.ca.certificatePath, "-o", "ndjson"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("\"method\":\"SyncDocuments\",\"shape\":\"bidi_streaming\""))

      let untrusted = try await APXProcess.run(["list", "--grpc", address, "-o", "ndjson"])
      #expect(untrusted.status == 78, "\(untrusted.stderr)")
      #expect(untrusted.stderr.contains("--cacert"), "\(untrusted.stderr)")
    }
  }

  @Test func listGRPCWithInsecureWarns() async throws {
    try await Self.withTLSServer(Self.serverTLS) { _, server in
      let r = try await APXProcess.run([
        "list", "--grpc", "grpcs://127.0.0.1:\(server.port)", "--insecure", "-o", "ndjson",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("classnotes.v1.ClassNotesAPI"))
      #expect(r.stderr.contains("warning: --insecure"))
    }
  }

  @Test func listGRPCOverMutualTLSSendsTheClientCertificate() async throws {
    try await Self.withTLSServer(Self.mutualTLS) { pki, server in
      let r = try await APXProcess.run([
        "list", "--grpc", "grpcs://127.0.0.1:\(server.port)", "--cacert", pki.ca.certificatePath,
        "--cert", pki.client.certificatePath, "--key", pki.client.keyPath, "-o", "ndjson",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("classnotes.v1.ClassNotesAPI"))
    }
  }

  @Test func unusableTLSFilesAreUsageErrorsNamingTheFile() async throws {
    try await Self.withTLSServer(Self.mutualTLS) { pki, server in
      let base = "grpcs://127.0.0.1:\(server.port)"
      let notPEM = try temporaryFile("not-a-cert.pem", "hello\n")
      let badCA = try await Self.getLesson(base, ["--cacert", notPEM])
      #expect(badCA.status == 2, "\(badCA.stderr)")
      // `apx call` also hands --cacert to its HTTP client, which may be the first to object.
      #expect(badCA.stderr.contains(notPEM) && badCA.stderr.contains("--cacert"), "\(badCA.stderr)")
      let listBadCA = try await APXProcess.run(["list", "--grpc", base, "--cacert", notPEM])
      #expect(listBadCA.status == 2, "\(listBadCA.stderr)")
      #expect(listBadCA.stderr.contains("--cacert \(notPEM) holds no PEM certificate"), "\(listBadCA.stderr)")

      let badKey = try await Self.getLesson(
        base, ["--cacert", pki.ca.certificatePath, "--cert", pki.client.certificatePath, "--key", notPEM])
      #expect(badKey.status == 2, "\(badKey.stderr)")
      #expect(badKey.stderr.contains("cannot read the client key \(notPEM)"), "\(badKey.stderr)")

      // Both files parse, but the key is the server's, not the client certificate's.
      let mismatched = try await Self.getLesson(
        base, ["--cacert", pki.ca.certificatePath, "--cert", pki.client.certificatePath, "--key", pki.server.keyPath])
      #expect(mismatched.status == 2, "\(mismatched.stderr)")
      #expect(mismatched.stderr.contains("--key is the private key"), "\(mismatched.stderr)")
    }
  }

  @Test func demoCommandServesMutualTLS() async throws {
    let pki = try PKI()
    defer { pki.ca.remove() }
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer { try? readEnd.close() }
    let arguments = [
      "demo", "--port", "0", "--grpc-port", "0", "--grpc-tls-cert", pki.server.certificatePath, "--grpc-tls-key",
      pki.server.keyPath, "--grpc-client-ca", pki.ca.certificatePath,
    ]
    // A server for the whole test: outside the slots that bound short runs (it waits for one).
    _ = try await ChildProcess.run(
      APXProcess.binary.path, arguments, environment: APXProcess.environment(), stdoutTo: writeEnd, timeout: 120,
      bounded: false
    ) { demo in
      defer { demo.send(SIGTERM) }
      // The first line appears once both servers listen; EOF (an empty line) if the demo failed.
      let line = await Self.firstLine(FileHandle(fileDescriptor: readEnd.rawValue, closeOnDealloc: false))
      let grpc = try #require(try JSONParser.parse(line)["grpc"]?.stringValue)
      #expect(grpc.hasPrefix("grpcs://127.0.0.1:"))

      let r = try await Self.getLesson(
        grpc, ["--cacert", pki.ca.certificatePath, "--cert", pki.client.certificatePath, "--key", pki.client.keyPath])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try JSONParser.parse(r.stdout)["id"] == .string("les_0001"))
    }
  }

  /// The first line written to `handle`, read on a thread of its own (a blocking read must not
  /// hold one of Swift concurrency's threads).
  static func firstLine(_ handle: FileHandle) async -> String {
    await withCheckedContinuation { continuation in
      let reader = Thread {
        var data = Data()
        while !data.contains(0x0A) {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          data.append(chunk)
        }
        continuation.resume(returning: String(decoding: data.prefix { $0 != 0x0A }, as: UTF8.self))
      }
      reader.start()
    }
  }

  @Test func demoCommandChecksItsTLSFlags() async throws {
    let halfPair = try await APXProcess.run(["demo", "--port", "0", "--grpc-port", "0", "--grpc-tls-cert", "c.pem"])
    #expect(halfPair.status == 2)
    #expect(halfPair.stderr.contains("--grpc-tls-key"))

    let caAlone = try await APXProcess.run(["demo", "--port", "0", "--grpc-port", "0", "--grpc-client-ca", "ca.pem"])
    #expect(caAlone.status == 2)

    let missing = try await APXProcess.run([
      "demo", "--port", "0", "--grpc-port", "0", "--grpc-tls-cert", "/nonexistent/c.pem", "--grpc-tls-key",
      "/nonexistent/k.pem",
    ])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("cannot read /nonexistent/c.pem"))
  }
}
