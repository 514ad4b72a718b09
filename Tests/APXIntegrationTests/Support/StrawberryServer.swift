/// Python's strawberry-graphql on aiohttp (`Tests/Fixtures/graphql/strawberry_server.py`): a
/// GraphQL server apx did not write, one per test on 127.0.0.1 port 0.
enum StrawberryServer {
  /// Why the tests are skipped when Python cannot run the server.
  static let missing =
    "python3 with strawberry-graphql and aiohttp is not installed (pip install strawberry-graphql aiohttp, as .ci/run does)"

  static let server = PythonFixtureServer(
    script: "Tests/Fixtures/graphql/strawberry_server.py",
    importCheck: "import strawberry.aiohttp.views, aiohttp", scheme: "http")

  /// Whether `python3` imports strawberry's aiohttp view (asked once per test process).
  static func found() async -> Bool { await availability.value }

  private static let availability = Task { await server.available() }

  /// Starts the server and runs `body` with its `http://127.0.0.1:PORT`.
  static func run(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
    try await server.run(body)
  }
}
