import Foundation
import Testing

/// Authlib's OAuth 2.0 and OpenID provider on Flask (`Tests/Fixtures/oauth/authlib_server.py`):
/// an authorization server apx did not write, one per test on 127.0.0.1 port 0.
enum AuthlibProvider {
  static let missing =
    "python3 with authlib and flask is not installed (python3 -m pip install authlib flask, as .ci/run does)"
  static let server = PythonFixtureServer(
    script: "Tests/Fixtures/oauth/authlib_server.py", importCheck: "import authlib.oauth2, flask", scheme: "http")

  /// Whether the tests run: Authlib is there, or CI requires it (and the tests then fail).
  static func enabled() async -> Bool {
    await available.value || ProcessInfo.processInfo.environment["APX_CI"] != nil
  }
  private static let available = Task { await server.available() }
}
