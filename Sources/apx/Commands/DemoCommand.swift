import APXCore
import APXDemoServer
import ArgumentParser

/// `apx demo [--port N]`: the embedded demo backend in the foreground.
struct DemoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract: "Run the embedded demo backend (books, gifs, classnotes gRPC) on 127.0.0.1 until Ctrl-C.",
    discussion: """
      Prints one JSON line with the addresses on stdout once listening. Point apx at it with
      --base-url, or use --demo on any command to run it in-process instead.
      Demo credentials: OAuth2 client demo-client / demo-secret; gifs API key demo-key.
      """)

  @Option(name: .customLong("port"), help: ArgumentHelp("HTTP port (0 picks a free one).", valueName: "N"))
  var port = 8080

  @Option(name: .customLong("grpc-port"), help: ArgumentHelp("gRPC port (0 picks a free one).", valueName: "N"))
  var grpcPort = 50051

  @Option(name: .customLong("token-lifetime"), help: ArgumentHelp("Lifetime of issued OAuth tokens in seconds.", valueName: "SECONDS"))
  var tokenLifetime: Double = 3600

  func validate() throws {
    guard (0...65535).contains(port), (0...65535).contains(grpcPort) else {
      throw ValidationError("ports must be from 0 to 65535")
    }
    guard tokenLifetime > 0 else { throw ValidationError("--token-lifetime must be positive") }
  }

  func run() async throws {
    let context = Context.shared
    var options = DemoServerOptions()
    options.httpPort = port
    options.grpcPort = grpcPort
    options.tokenLifetime = tokenLifetime
    let server: DemoServer
    do {
      server = try await DemoServer.start(options)
    } catch {
      throw APXError(
        .network, "the demo backend could not listen on 127.0.0.1:\(port) / \(grpcPort)",
        hint: "is another process using the port? Try --port 0 --grpc-port 0 for free ports", cause: "\(error)")
    }
    let info: JSONValue = .object([
      JSONMember("http", .string(server.httpBaseURL)),
      JSONMember("grpc", .string("grpc://127.0.0.1:\(server.grpcPort)")),
    ])
    context.stdout.write(JSONPrinter(style: .compact).bytes(info) + [0x0A])
    context.stdout.flush()
    context.warn("apx: demo backend listening on \(server.httpBaseURL) (gRPC on port \(server.grpcPort)); Ctrl-C stops it")
    try await server.runUntilCancelled()
  }
}
