import APXDemoServer
import GRPCCore
import GRPCNIOTransportHTTP2

/// A running demo gRPC server on a free loopback port with a client connected to it, for one test.
struct DemoGRPCHarness {
  typealias Transport = HTTP2ClientTransport.Posix

  /// Starts a server, runs `body` with a client of it, then stops both (also when `body` throws).
  static func run<Result: Sendable>(
    requireAuth: Bool = false,
    validateToken: @escaping @Sendable (String) -> Bool = { _ in false },
    _ body: (GRPCClient<Transport>, DemoGRPCServer) async throws -> Result
  ) async throws -> Result {
    let server = try await DemoGRPCServer.start(
      host: "127.0.0.1",
      port: 0,
      requireAuth: requireAuth,
      validateToken: validateToken
    )
    do {
      let transport = try HTTP2ClientTransport.Posix(
        target: .ipv4(address: "127.0.0.1", port: server.port),
        transportSecurity: .plaintext
      )
      let result = try await withGRPCClient(transport: transport) { client in
        try await body(client, server)
      }
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  /// Runs `call` and returns the RPCError it throws; fails the caller's expectation otherwise.
  static func rpcError(_ call: () async throws -> Void) async -> RPCError? {
    do {
      try await call()
      return nil
    } catch let error as RPCError {
      return error
    } catch {
      return RPCError(code: .unknown, message: "Not an RPCError: \(error)")
    }
  }
}
