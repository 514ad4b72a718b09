import APXCore
import APXTestSupport
import Foundation

@testable import APXRuntime

/// Fixtures for the auth tests: a books-like API protected by the demo
/// server's OAuth2 endpoint, and a private token folder per test.
enum AuthFixture {
  static let api = """
    {
      "api": "books",
      "environments": { "demo": { "base_url": "http://127.0.0.1:1" } },
      "auth": {
        "type": "oauth2_client_credentials", "token_url": "/oauth/token",
        "client_id": "${env:T_CLIENT_ID:-demo-client}",
        "client_secret": "${env:T_CLIENT_SECRET:-demo-secret}",
        "scopes": ["books:read"]
      },
      "endpoints": {
        "capabilities": { "kind": "rest", "method": "GET", "path": "/api/v2/capabilities" },
        "expire": { "kind": "rest", "method": "POST", "path": "/_demo/expire-tokens", "auth": { "type": "none" } }
      }
    }
    """

  /// A new, empty token folder.
  static func store() -> TokenStore {
    TokenStore(
      directory: TestScratch.root.appendingPathComponent("apx-tokens-\(UUID().uuidString)").path)
  }

  /// POSIX permission bits of `path`.
  static func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }
}
