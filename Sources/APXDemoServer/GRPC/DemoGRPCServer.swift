import GRPCCore
import GRPCNIOTransportHTTP2

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The demo backend's gRPC half: `classnotes.v1.ClassNotesAPI` plus server reflection (v1 and
/// v1alpha), over HTTP/2 on a loopback port: plaintext, or TLS (optionally mutual) with `tls`.
///
/// Fault injection through request metadata: `x-demo-fail-times: N` with `x-demo-key: K` fails the
/// first N calls for K with `UNAVAILABLE` (or with `RESOURCE_EXHAUSTED` and a JSON message when
/// `x-demo-fail-code: RESOURCE_EXHAUSTED` is sent).
public struct DemoGRPCServer: Sendable {
  /// The port the server listens on (the real one when started on port 0).
  public let port: Int
  /// The host the server is bound to.
  public let host: String
  /// Whether the server speaks TLS (clients then use `grpcs://`).
  public let usesTLS: Bool

  private let server: GRPCServer<HTTP2ServerTransport.Posix>
  private let serving: Task<Void, any Error>

  private init(
    host: String,
    port: Int,
    usesTLS: Bool,
    server: GRPCServer<HTTP2ServerTransport.Posix>,
    serving: Task<Void, any Error>
  ) {
    self.host = host
    self.port = port
    self.usesTLS = usesTLS
    self.server = server
    self.serving = serving
  }

  /// Starts a server on `host:port` (port 0 picks a free port) and returns once it listens.
  ///
  /// - Parameters:
  ///   - host: An IPv4 address to bind, normally `127.0.0.1`.
  ///   - port: The port, or 0 for any free port.
  ///   - requireAuth: Whether ClassNotes calls need `authorization: Bearer <token>` metadata
  ///     (reflection never does).
  ///   - validateToken: Says whether a bearer token is valid; called only when `requireAuth`.
  ///   - tls: Serve over TLS with these PEM files (mutual TLS when it names a client CA);
  ///     nil serves plaintext.
  ///   - reflectionOmitsJSONNames: Serve reflection descriptors without `json_name` on their
  ///     fields, like reflection servers not built from protoc output (for client tests).
  ///   - reflectionFault: Serve broken reflection descriptors (for client tests); nil serves them intact.
  /// - Throws: When the descriptor set or the TLS files cannot be read, or the address cannot be bound.
  public static func start(
    host: String = "127.0.0.1",
    port: Int = 0,
    requireAuth: Bool = false,
    validateToken: @escaping @Sendable (String) -> Bool = { _ in false },
    tls: DemoGRPCTLS? = nil,
    reflectionOmitsJSONNames: Bool = false,
    reflectionFault: DemoReflectionFault? = nil
  ) async throws -> DemoGRPCServer {
    let responder = ReflectionResponder(
      index: try ReflectionIndex.embedded(omitJSONNames: reflectionOmitsJSONNames, fault: reflectionFault))
    let services: [any RegistrableRPCService] = [
      ClassNotesService(
        lessons: LessonStore(seed: SampleLessons.make(createdAt: Date())),
        documents: DocumentVersions()
      ),
      ServerReflectionV1Service(responder: responder),
      ServerReflectionV1AlphaService(responder: responder),
    ]
    // Faults first, as a proxy in front of the server would answer before auth is checked.
    var interceptors: [any ServerInterceptor] = [
      FaultInjectionInterceptor(counters: FaultCounters())
    ]
    if requireAuth {
      interceptors.append(
        BearerAuthInterceptor(
          validateToken: validateToken,
          openServices: [
            Grpc_Reflection_V1_ServerReflection.descriptor.fullyQualifiedService,
            Grpc_Reflection_V1alpha_ServerReflection.descriptor.fullyQualifiedService,
          ]
        )
      )
    }

    // Flushes at once, as grpc-go and grpcio servers do. grpc-swift-nio-transport's default holds
    // each flush up to 100 µs to share a syscall, which every client paid three times per call
    // with reflection (0.2-0.3 ms of grpcurl's and apx's time alike); a server stream of 100,000
    // messages was no faster with it (93,000-95,000 msg/s against 96,000 without).
    var config = HTTP2ServerTransport.Posix.Config.defaults
    config.connection.flushCoalescing = nil
    let transport = HTTP2ServerTransport.Posix(
      address: .ipv4(host: host, port: port),
      transportSecurity: tls?.transportSecurity ?? .plaintext,
      config: config
    )
    let server = GRPCServer(transport: transport, services: services, interceptors: interceptors)
    let serving = Task { try await server.serve() }
    do {
      let address = try await transport.listeningAddress
      guard let boundPort = address.ipv4?.port ?? address.ipv6?.port else {
        throw RPCError(
          code: .internalError,
          message: "The demo gRPC server is listening on \(address), which has no TCP port."
        )
      }
      return DemoGRPCServer(
        host: host, port: boundPort, usesTLS: tls != nil, server: server, serving: serving)
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

  /// Stops accepting calls, lets running calls finish, and returns once the server has stopped.
  public func stop() async {
    self.server.beginGracefulShutdown()
    _ = await self.serving.result
  }
}
