import APXGRPCReflection
import APXServing
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

  private let server: GRPCServerHost

  private init(host: String, usesTLS: Bool, server: GRPCServerHost) {
    self.host = host
    self.port = server.port
    self.usesTLS = usesTLS
    self.server = server
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

    let started = try await GRPCServerHost.start(
      host: host, port: port, security: tls?.transportSecurity ?? .plaintext, services: services,
      interceptors: interceptors)
    return DemoGRPCServer(host: host, usesTLS: tls != nil, server: started)
  }

  /// Stops accepting calls, lets running calls finish, and returns once the server has stopped.
  public func stop() async {
    await self.server.stop()
  }
}
