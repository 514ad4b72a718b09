import APXDemoServer
import APXTestSupport
import Foundation

/// Runs `body` against a fresh demo backend on 127.0.0.1 port 0, stopped afterwards.
func withDemoServer<T>(
  _ options: DemoServerOptions = DemoServerOptions(), _ body: (DemoServer) async throws -> T
) async throws -> T {
  let server = try await DemoServer.start(options)
  do {
    let result = try await body(server)
    await server.stop()
    return result
  } catch {
    await server.stop()
    throw error
  }
}

/// A temporary file holding `contents`, removed with the test process's scratch folder (`TestScratch`).
func temporaryFile(_ name: String, _ contents: String) throws -> String {
  let dir = TestScratch.root.appendingPathComponent("apx-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let url = dir.appendingPathComponent(name)
  try contents.write(to: url, atomically: true, encoding: .utf8)
  return url.path
}
