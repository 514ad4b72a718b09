package import GRPCCore
package import GRPCNIOTransportHTTP2

/// A grpc-swift HTTP/2 server on one address, started and stopped: the demo's gRPC half and
/// `apx mock`'s gRPC services run on it.
package struct GRPCServerHost: Sendable {
  /// The port the server listens on (the real one when started on port 0).
  package let port: Int

  private let server: GRPCServer<HTTP2ServerTransport.Posix>
  private let serving: Task<Void, any Error>

  /// Starts `services` behind `interceptors` on `host:port` (port 0 picks a free port), plaintext
  /// or with `tls`, and returns once the server listens.
  /// - Throws: When the TLS files cannot be read or the address cannot be bound.
  package static func start(
    host: String, port: Int, security: HTTP2ServerTransport.Posix.TransportSecurity = .plaintext,
    services: [any RegistrableRPCService],
    interceptors: [any ServerInterceptor]
  ) async throws -> GRPCServerHost {
    // Flushes at once, as grpc-go and grpcio servers do. grpc-swift-nio-transport's default holds
    // each flush a little to share a syscall, which every client paid on each round trip, and a
    // long server stream was no faster with it.
    var config = HTTP2ServerTransport.Posix.Config.defaults
    config.connection.flushCoalescing = nil
    let transport = HTTP2ServerTransport.Posix(
      address: .ipv4(host: host, port: port),
      transportSecurity: security,
      config: config
    )
    let server = GRPCServer(transport: transport, services: services, interceptors: interceptors)
    let serving = Task { try await server.serve() }
    do {
      let address = try await transport.listeningAddress
      guard let boundPort = address.ipv4?.port ?? address.ipv6?.port else {
        throw RPCError(
          code: .internalError, message: "The gRPC server is listening on \(address), which has no TCP port.")
      }
      return GRPCServerHost(port: boundPort, server: server, serving: serving)
    } catch {
      server.beginGracefulShutdown()
      serving.cancel()
      // Surface the bind failure the serving task saw, which says more than the address lookup.
      if case .failure(let serveError) = await serving.result {
        throw serveError
      }
      throw error
    }
  }

  private init(port: Int, server: GRPCServer<HTTP2ServerTransport.Posix>, serving: Task<Void, any Error>) {
    self.port = port
    self.server = server
    self.serving = serving
  }

  /// Stops accepting calls, lets running calls finish, and returns once the server has stopped.
  package func stop() async {
    self.server.beginGracefulShutdown()
    _ = await self.serving.result
  }
}
