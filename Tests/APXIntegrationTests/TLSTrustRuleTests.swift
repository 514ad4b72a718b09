import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// One trust rule for every protocol: the system store, unless `--cacert`, `SSL_CERT_FILE` or
/// `SSL_CERT_DIR` names certificates; then exactly those, together. A REST server and a gRPC
/// server share one certificate from a CA made at test time, and every way of trusting (or not
/// trusting) that CA must give both calls the same outcome.
@Suite("one TLS trust rule for REST and gRPC", .serialized, .timeLimit(.minutes(5)))
struct TLSTrustRuleTests {
  /// A way of trusting: flags and environment, and whether the test CA is then trusted.
  struct Trust: CustomStringConvertible {
    var description: String
    var flags: [String] = []
    var environment: [String: String] = [:]
    var trusted: Bool
  }

  /// `apx import grpc grpcs://...` reflects under the same rule, `SSL_CERT_FILE` included.
  @Test func grpcImportTrustsSSLCertFile() async throws {
    let ca = try TestCertificateAuthority()
    defer { ca.remove() }
    let issued = try ca.issueServer("server", dnsNames: ["localhost"], ipAddresses: [[127, 0, 0, 1]])
    let grpc = try await DemoGRPCServer.start(
      host: "127.0.0.1", port: 0,
      tls: DemoGRPCTLS(certificateChainPath: issued.certificatePath, privateKeyPath: issued.keyPath))
    let out = ca.directory.appendingPathComponent("imported").path
    let command = [
      "import", "grpc", "grpcs://127.0.0.1:\(grpc.port)", "--out", out, "--api", "notes", "--timeout", "60",
    ]
    do {
      let untrusted = try await APXProcess.run(command)
      #expect(untrusted.status != 0, "the test CA is not in the system store: \(untrusted.stderr)")
      let trusted = try await APXProcess.run(command, environment: ["SSL_CERT_FILE": ca.certificatePath])
      #expect(trusted.status == 0, "\(trusted.stderr)")
    } catch {
      await grpc.stop()
      throw error
    }
    await grpc.stop()
  }

  @Test func restAndGRPCTrustTheSameCertificates() async throws {
    let ca = try TestCertificateAuthority()
    let other = try TestCertificateAuthority(name: "another CA")
    defer {
      ca.remove()
      other.remove()
    }
    let folder = ca.directory.appendingPathComponent("trusted")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: ca.certificatePath, toPath: folder.appendingPathComponent("ca.pem").path)
    let issued = try ca.issueServer("server", dnsNames: ["localhost"], ipAddresses: [[127, 0, 0, 1]])
    let ways = [
      Trust(description: "the system store", trusted: false),
      Trust(description: "--cacert", flags: ["--cacert", ca.certificatePath], trusted: true),
      Trust(description: "SSL_CERT_FILE", environment: ["SSL_CERT_FILE": ca.certificatePath], trusted: true),
      Trust(description: "SSL_CERT_DIR", environment: ["SSL_CERT_DIR": folder.path], trusted: true),
      Trust(description: "--cacert of another CA", flags: ["--cacert", other.certificatePath], trusted: false),
      Trust(
        description: "SSL_CERT_FILE of another CA", environment: ["SSL_CERT_FILE": other.certificatePath],
        trusted: false),
      Trust(
        description: "--cacert with SSL_CERT_FILE of another CA", flags: ["--cacert", ca.certificatePath],
        environment: ["SSL_CERT_FILE": other.certificatePath], trusted: true),
    ]
    let rest = try await TLSTestServer.start(certificatePath: issued.certificatePath, keyPath: issued.keyPath)
    let grpc = try await DemoGRPCServer.start(
      host: "127.0.0.1", port: 0,
      tls: DemoGRPCTLS(certificateChainPath: issued.certificatePath, privateKeyPath: issued.keyPath))
    do {
      let registry = try TrustStoreEnvironmentTests.registry(rest)
      for way in ways {
        let restCall = try await APXProcess.run(
          ["call", "secure.get", "--registry", registry, "--no-retry"] + way.flags, environment: way.environment)
        let grpcCall = try await APXProcess.run(
          [
            "call", "classnotes.lessons.get", "id=les_0001", "--base-url", "grpcs://127.0.0.1:\(grpc.port)",
            "--no-retry",
          ] + way.flags,
          environment: way.environment)
        #expect((restCall.status == 0) == way.trusted, "REST with \(way): \(restCall.stderr)")
        #expect((grpcCall.status == 0) == way.trusted, "gRPC with \(way): \(grpcCall.stderr)")
        if !way.trusted {
          #expect(restCall.stderr.contains("signed by a CA apx does not trust"), "REST with \(way): \(restCall.stderr)")
        }
      }
    } catch {
      await rest.stop()
      await grpc.stop()
      throw error
    }
    await rest.stop()
    await grpc.stop()
  }
}
