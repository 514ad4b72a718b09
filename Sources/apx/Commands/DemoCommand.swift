import APXCore
import APXDemoServer
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apx demo [--port N] [--grpc-tls-cert FILE --grpc-tls-key FILE [--grpc-client-ca FILE]]`: the
/// embedded demo backend in the foreground, gRPC optionally over TLS or mutual TLS.
struct DemoCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract: "Run the embedded demo backend (books, gifs, classnotes gRPC) on 127.0.0.1 until Ctrl-C.",
    discussion: """
      Prints one JSON line with the addresses on stdout once listening. Point apx at it with
      --base-url, or use --demo on any command to run it in-process instead.
      Demo credentials: OAuth2 client demo-client / demo-secret; gifs API key demo-key.
      With --grpc-tls-cert and --grpc-tls-key, gRPC is served over TLS (grpcs://); add
      --grpc-client-ca to require client certificates signed by that CA (mutual TLS).
      """)

  @Option(
    name: .customLong("port"),
    // A negative number is its value (checked, with a clear message), not an unknown flag.
    parsing: .unconditional, help: ArgumentHelp("HTTP port (0 picks a free one).", valueName: "N"))
  var port = 8080

  @Option(
    name: .customLong("grpc-port"),
    parsing: .unconditional, help: ArgumentHelp("gRPC port (0 picks a free one).", valueName: "N"))
  var grpcPort = 50051

  @Option(
    name: .customLong("token-lifetime"),
    parsing: .unconditional,
    help: ArgumentHelp("Lifetime of issued OAuth tokens in seconds.", valueName: "SECONDS"))
  var tokenLifetime: Double = 3600

  /// About 31 years, as `--timeout`'s bound.
  static let maxTokenLifetime: Double = 1_000_000_000

  @Option(
    name: .customLong("grpc-tls-cert"),
    help: ArgumentHelp("Serve gRPC over TLS with this PEM certificate chain.", valueName: "FILE"))
  var grpcTLSCert: String?

  @Option(
    name: .customLong("grpc-tls-key"), help: ArgumentHelp("PEM private key of --grpc-tls-cert.", valueName: "FILE"))
  var grpcTLSKey: String?

  @Option(
    name: .customLong("grpc-client-ca"),
    help: ArgumentHelp("Require gRPC client certificates signed by this PEM CA (mutual TLS).", valueName: "FILE"))
  var grpcClientCA: String?

  func validate() throws {
    guard (0...65535).contains(port), (0...65535).contains(grpcPort) else {
      throw ValidationError("ports must be from 0 to 65535")
    }
    // The upper bound keeps the expiry (now + lifetime) a representable Duration: `inf` and
    // 1e308 were accepted, then trapped on the first token issued.
    guard tokenLifetime > 0, tokenLifetime <= Self.maxTokenLifetime else {
      throw ValidationError(
        "--token-lifetime must be positive, at most \(Int(Self.maxTokenLifetime)) seconds, got \(tokenLifetime)")
    }
    guard (grpcTLSCert == nil) == (grpcTLSKey == nil) else {
      throw ValidationError("gRPC TLS needs both --grpc-tls-cert and --grpc-tls-key")
    }
    if grpcClientCA != nil, grpcTLSCert == nil {
      throw ValidationError("--grpc-client-ca needs TLS: also pass --grpc-tls-cert and --grpc-tls-key")
    }
  }

  /// The gRPC TLS settings from the flags, after checking the files can be read (the TLS stack
  /// would otherwise fail later with a less helpful message).
  func grpcTLS() throws -> DemoGRPCTLS? {
    guard let grpcTLSCert, let grpcTLSKey else { return nil }
    for path in [grpcTLSCert, grpcTLSKey, grpcClientCA].compactMap({ $0 })
    where !FileManager.default.isReadableFile(atPath: path) {
      throw APXError(.usage, "cannot read \(path)", hint: "pass the path of a PEM file")
    }
    return DemoGRPCTLS(certificateChainPath: grpcTLSCert, privateKeyPath: grpcTLSKey, clientCAPath: grpcClientCA)
  }

  func run(in context: Context) async throws {
    var options = DemoServerOptions()
    options.httpPort = port
    options.grpcPort = grpcPort
    options.tokenLifetime = tokenLifetime
    options.grpcTLS = try grpcTLS()
    let server: DemoServer
    do {
      server = try await DemoServer.start(options)
    } catch {
      throw APXError(
        .network, "the demo backend could not listen on 127.0.0.1:\(port) / \(grpcPort)",
        hint: options.grpcTLS == nil
          ? "is another process using the port? Try --port 0 --grpc-port 0 for free ports"
          : "is another process using the port (try --port 0 --grpc-port 0), or are the TLS files not a PEM "
            + "certificate chain and its matching private key?",
        underlying: error)
    }
    let info: JSONValue = .object([
      JSONMember("http", .string(server.httpBaseURL)),
      JSONMember("grpc", .string(server.grpcBaseURL)),
    ])
    context.stdout.write(JSONPrinter(style: .compact).bytes(info) + [0x0A])
    context.stdout.flush()
    context.warn(
      "apx: demo backend listening on \(server.httpBaseURL) (gRPC on \(server.grpcBaseURL)); Ctrl-C stops it")
    try await server.runUntilCancelled()
  }
}
