import APXCore
import Testing

@testable import APXRuntime

/// The `:authority` override over TLS, where grpc-swift also sends it as the server name (SNI)
/// and an IP address there would fail the handshake.
@Suite("gRPC --authority over TLS")
struct GRPCTLSAuthorityTests {
  let tls = GRPCTarget(host: "127.0.0.1", port: 8443, useTLS: true)

  @Test func hostNamesPassThrough() throws {
    #expect(try GRPCConnection.authority(tls, settings: GRPCSettings(authority: "demo.test")) == "demo.test")
    #expect(try GRPCConnection.authority(tls, settings: GRPCSettings(authority: "demo.test:443")) == "demo.test:443")
    #expect(try GRPCConnection.authority(tls, settings: GRPCSettings()) == nil)
  }

  @Test func theTargetsOwnIPIsDroppedOverTLS() throws {
    #expect(try GRPCConnection.authority(tls, settings: GRPCSettings(authority: "127.0.0.1")) == nil)
    #expect(try GRPCConnection.authority(tls, settings: GRPCSettings(authority: "127.0.0.1:8443")) == nil)
    let v6 = GRPCTarget(host: "::1", port: 8443, useTLS: true)
    #expect(try GRPCConnection.authority(v6, settings: GRPCSettings(authority: "[::1]:8443")) == nil)
  }

  @Test func anotherIPIsAUsageErrorOverTLS() {
    #expect(throws: APXError.self) {
      try GRPCConnection.authority(tls, settings: GRPCSettings(authority: "10.0.0.7"))
    }
    do {
      _ = try GRPCConnection.authority(tls, settings: GRPCSettings(authority: "10.0.0.7:443"))
    } catch {
      #expect(error.status == .usage)
      #expect(error.message.contains("IP address"))
    }
  }

  @Test func plaintextKeepsAnyAuthority() throws {
    let plain = GRPCTarget(host: "127.0.0.1", port: 50051, useTLS: false)
    #expect(try GRPCConnection.authority(plain, settings: GRPCSettings(authority: "10.0.0.7")) == "10.0.0.7")
  }

  @Test func hostPartHandlesPortsAndIPv6() {
    #expect(GRPCConnection.hostPart(of: "demo.test:443") == "demo.test")
    #expect(GRPCConnection.hostPart(of: "demo.test") == "demo.test")
    #expect(GRPCConnection.hostPart(of: "[::1]:443") == "::1")
    #expect(GRPCConnection.hostPart(of: "::1") == "::1")
  }
}
