/// Python's `websockets` (`Tests/Fixtures/websockets/websockets_server.py`): a WebSocket server
/// apx did not write, one per test on 127.0.0.1 port 0.
enum WebSocketPythonServer {
  /// Why the tests are skipped when Python cannot run the server.
  static let missing = "python3 with websockets is not installed (pip install websockets, as .ci/run does)"

  static let server = PythonFixtureServer(
    script: "Tests/Fixtures/websockets/websockets_server.py", importCheck: "import websockets.asyncio.server",
    scheme: "ws")

  /// Whether `python3` imports `websockets` (asked once per test process).
  static func found() async -> Bool { await availability.value }

  private static let availability = Task { await server.available() }

  /// Starts the server and runs `body` with its `ws://127.0.0.1:PORT`.
  static func run(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
    try await server.run(body)
  }
}
