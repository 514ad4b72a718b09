/// Settings for one run of the embedded demo backend.
///
/// Every value has a default that suits tests: loopback, ephemeral ports, no auth,
/// and a row delay short enough that a 20-row import finishes in well under a second.
public struct DemoServerOptions: Sendable {
  /// Address to bind; the demo server only ever listens on loopback.
  public var host: String
  /// HTTP port; 0 asks the OS for a free port (read it back from `DemoServer.httpPort`).
  public var httpPort: Int
  /// gRPC port; 0 asks the OS for a free port.
  public var grpcPort: Int
  /// Lifetime of issued OAuth2 access tokens, in seconds.
  public var tokenLifetime: Double
  /// When true, every `/api/v2/...` route requires `Authorization: Bearer <token>`.
  public var requireAuth: Bool
  /// Seconds spent per CSV row when an import request does not give `row_delay_ms`.
  public var rowDelay: Double
  /// Serve gRPC over TLS (mutual TLS when it names a client CA); nil serves plaintext gRPC.
  public var grpcTLS: DemoGRPCTLS?

  /// Creates options; every parameter has a test-friendly default.
  public init(
    host: String = "127.0.0.1",
    httpPort: Int = 0,
    grpcPort: Int = 0,
    tokenLifetime: Double = 3600,
    requireAuth: Bool = false,
    rowDelay: Double = 0.02,
    grpcTLS: DemoGRPCTLS? = nil
  ) {
    self.host = host
    self.httpPort = httpPort
    self.grpcPort = grpcPort
    self.tokenLifetime = tokenLifetime
    self.requireAuth = requireAuth
    self.rowDelay = rowDelay
    self.grpcTLS = grpcTLS
  }
}
