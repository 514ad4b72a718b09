import APXCore
import APXGRPCReflection
public import APXProtobuf
import APXServing
public import GRPCCore

/// gRPC services served from their descriptors alone: every method answers with examples of its
/// output type (`ProtoExample`), server reflection lists and describes them (so grpcurl and
/// `apx list` work against it), and the auth is checked in form.
public struct GRPCMockServer: Sendable {
  /// The port the server listens on (the real one when started on port 0).
  public let port: Int
  /// The services served, by full name.
  public let services: [String]

  private let host: GRPCServerHost

  /// Starts serving `services` (nil: every service) of serialized `FileDescriptorSet`s (a file
  /// in more than one is taken once) on `host:port` (port 0 picks a free port), and returns once
  /// the server listens.
  /// - Parameters:
  ///   - auth: What each service's calls must carry, by service name; services not named need nothing.
  ///   - streamMessages: How many messages a server stream sends.
  ///   - fault: Asked once per call, with its request metadata: a fault to answer with, or nil.
  ///   - latency: Asked once per call: milliseconds to wait before answering it.
  ///   - observe: Told of every call once it ends.
  /// - Throws: `APXError` when the descriptor set cannot be read or names no such service;
  ///   the transport's error when the address cannot be bound.
  public static func start(
    protosets: [[UInt8]], services wanted: [String]? = nil, host: String = "127.0.0.1", port: Int = 0,
    examples: ProtoExample = ProtoExample(), streamMessages: Int = 3, auth: [String: GRPCMockAuth] = [:],
    fault: @escaping @Sendable (Metadata, MethodInfo) -> GRPCMockFault? = { _, _ in nil },
    latency: @escaping @Sendable (Metadata, MethodInfo) -> Int = { _, _ in 0 },
    observe: @escaping @Sendable (GRPCMockCall) -> Void = { _ in }
  ) async throws -> GRPCMockServer {
    let pool: DescriptorPool
    let index: ReflectionIndex
    do {
      let protoset = try DescriptorSetMerge.merged(protosets)
      pool = try DescriptorPool(protoset: protoset)
      index = try ReflectionIndex(descriptorSetBytes: protoset)
    } catch {
      throw APXError(
        .invalidDefinition, "the descriptor set cannot be read: \(error)",
        hint: "make one with protoc --include_imports --descriptor_set_out=FILE")
    }
    let served = wanted ?? pool.services
    var methods: [MethodInfo] = []
    for service in served {
      guard pool.services.contains(service) else {
        throw APXError(
          .usage, "the descriptor set has no service \(service)",
          hint: "its services: \(pool.services.joined(separator: ", "))")
      }
      for name in try pool.methods(of: service) { methods.append(try pool.method(service: service, method: name)) }
    }
    let responder = ReflectionResponder(index: index)
    let rpcServices: [any RegistrableRPCService] = [
      ExampleAnswers(
        pool: pool, methods: methods, examples: examples, streamMessages: max(0, streamMessages), fault: fault,
        latency: latency, observe: observe),
      ServerReflectionV1Service(responder: responder),
      ServerReflectionV1AlphaService(responder: responder),
    ]
    let interceptors: [any ServerInterceptor] = auth.isEmpty ? [] : [GRPCMockAuthInterceptor(byService: auth)]
    let started = try await GRPCServerHost.start(
      host: host, port: port, services: rpcServices, interceptors: interceptors)
    return GRPCMockServer(port: started.port, services: served, host: started)
  }

  private init(port: Int, services: [String], host: GRPCServerHost) {
    self.port = port
    self.services = services
    self.host = host
  }

  /// Stops accepting calls, lets running calls finish, and returns once the server has stopped.
  public func stop() async {
    await host.stop()
  }
}
