import APXCore
import APXGRPCReflection
import APXServing
public import GRPCCore

/// A gRPC server that hands every call of some methods, as bytes, to `forward`
/// (`apx mock --record`'s gRPC proxy), and answers server reflection from a descriptor set,
/// so that clients that ask the proxy for its services get the upstream's.
public struct GRPCRelayServer: Sendable {
  /// The port the server listens on (the real one when started on port 0).
  public let port: Int
  private let host: GRPCServerHost

  /// Starts serving `methods` on `host:port` (port 0 picks a free one) and returns once the
  /// server listens; `descriptorSet` (a serialized `FileDescriptorSet`) answers reflection.
  /// - Throws: `APXError` when the descriptor set cannot be read; the transport's error when
  ///   the address cannot be bound.
  public static func start(
    methods: [MethodDescriptor], descriptorSet: [UInt8], host: String, port: Int,
    forward:
      @escaping @Sendable (StreamingServerRequest<[UInt8]>, MethodDescriptor) async throws ->
      StreamingServerResponse<[UInt8]>
  ) async throws -> GRPCRelayServer {
    let index: ReflectionIndex
    do {
      index = try ReflectionIndex(descriptorSetBytes: descriptorSet)
    } catch {
      throw APXError(.invalidDefinition, "the upstream's descriptors cannot be read: \(error)")
    }
    let responder = ReflectionResponder(index: index)
    let started = try await GRPCServerHost.start(
      host: host, port: port,
      services: [
        RelayedMethods(methods: methods, forward: forward), ServerReflectionV1Service(responder: responder),
        ServerReflectionV1AlphaService(responder: responder),
      ], interceptors: [])
    return GRPCRelayServer(port: started.port, host: started)
  }

  private init(port: Int, host: GRPCServerHost) {
    self.port = port
    self.host = host
  }

  /// Stops accepting calls, lets running calls finish, and returns once the server has stopped.
  public func stop() async {
    await host.stop()
  }
}

/// Every method handed on as bytes.
private struct RelayedMethods: RegistrableRPCService {
  let methods: [MethodDescriptor]
  let forward:
    @Sendable (StreamingServerRequest<[UInt8]>, MethodDescriptor) async throws -> StreamingServerResponse<[UInt8]>

  func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
    for method in methods {
      router.registerHandler(forMethod: method, deserializer: RawBytesCoding(), serializer: RawBytesCoding()) {
        request, _ in
        try await forward(request, method)
      }
    }
  }
}
