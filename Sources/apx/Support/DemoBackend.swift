import APXDemoServer
import APXRuntime

/// `--demo`: runs the embedded demo backend in this process on free loopback
/// ports for the duration of one command.
enum DemoBackend {
  static func withOptionalDemo<T: Sendable>(_ enabled: Bool, _ body: (DemoAddresses?) async throws -> T) async throws
    -> T
  {
    guard enabled else { return try await body(nil) }
    let server = try await DemoServer.start(DemoServerOptions())
    do {
      let result = try await body(DemoAddresses(httpBaseURL: server.httpBaseURL, grpcPort: server.grpcPort))
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }
}
