import APXCore
import APXTestSupport
import Foundation
import Testing

/// Tokens in the Secret Service: GNOME Keyring on a private session bus, used through
/// libsecret's `secret-tool`, with the demo's OAuth2 client credentials as the token flow.
@Suite(
  "Tokens in the Secret Service (GNOME Keyring)", .timeLimit(.minutes(5)),
  .enabled(Comment(rawValue: KeyringSession.missing)) { await KeyringSession.enabled() })
struct KeychainTokenStoreTests {
  static func state() -> String {
    TestScratch.root.appendingPathComponent("apx-keychain-\(UUID().uuidString)").path
  }

  @Test func aTokenInItsFileMovesIntoTheKeychainOnFirstUseAndLogoutDeletesIt() async throws {
    try await KeyringSession.run { bus in
      let state = Self.state()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let file = state + "/tokens/books@demo.json"
      // Logged in while the files were the store.
      let login = try await APXProcess.run(
        ["auth", "login", "books", "--demo"], environment: ["APX_STATE_DIR": state, "APX_TOKEN_STORE": "file"])
      #expect(login.status == 0, "\(login.stderr)")
      #expect(FileManager.default.fileExists(atPath: file))
      let stored = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
      let access = try #require(stored["access_token"]?.stringValue)

      // With a keychain there (no APX_TOKEN_STORE: apx finds it), the first use moves the token.
      let keychain = ["APX_STATE_DIR": state, "APX_TOKEN_STORE": "", "DBUS_SESSION_BUS_ADDRESS": bus]
      let status = try await APXProcess.run(["auth", "status", "books", "--demo"], environment: keychain)
      #expect(status.status == 0, "\(status.stderr)")
      #expect(try JSONParser.parse(Array(status.stdout.utf8))["store"] == .string("secret-service"), "\(status.stdout)")
      #expect(!FileManager.default.fileExists(atPath: file), "the file copy is removed")
      let item = try #require(try await KeyringSession.lookup("books/demo", bus: bus), "the keychain holds it")
      #expect(try JSONParser.parse(Array(item.utf8))["access_token"]?.stringValue == access)
      #expect(!status.stdout.contains(access) && !status.stderr.contains(access))

      // A new token goes to the keychain only.
      let again = try await APXProcess.run(["auth", "login", "books", "--demo"], environment: keychain)
      #expect(again.status == 0, "\(again.stderr)")
      #expect(!FileManager.default.fileExists(atPath: file))
      let renewed = try #require(try await KeyringSession.lookup("books/demo", bus: bus))
      #expect(try JSONParser.parse(Array(renewed.utf8))["access_token"]?.stringValue != access)

      let list = try await APXProcess.run(["auth", "status"], environment: keychain)
      #expect(
        list.stdout.contains(#""api":"books""#) && list.stdout.contains(#""store":"secret-service""#), "\(list.stdout)")

      let logout = try await APXProcess.run(["auth", "logout", "books", "--demo"], environment: keychain)
      #expect(logout.status == 0, "\(logout.stderr)")
      #expect(try JSONParser.parse(Array(logout.stdout.utf8))["logged_out"] == .bool(true))
      #expect(try await KeyringSession.lookup("books/demo", bus: bus) == nil, "logout deletes the keychain item")
    }
  }

  @Test func aBusWithoutASecretServiceLeavesTokensInTheFilesAndSaysSo() async throws {
    let state = Self.state()
    defer { try? FileManager.default.removeItem(atPath: state) }
    let env = [
      "APX_STATE_DIR": state, "APX_TOKEN_STORE": "", "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(state)/no-bus",
    ]
    let login = try await APXProcess.run(["auth", "login", "books", "--demo"], environment: env)
    #expect(login.status == 0, "\(login.stderr)")
    #expect(FileManager.default.fileExists(atPath: state + "/tokens/books@demo.json"))
    let status = try await APXProcess.run(["auth", "status", "books", "--demo"], environment: env)
    let summary = try JSONParser.parse(Array(status.stdout.utf8))
    #expect(summary["store"] == .string("file"), "\(status.stdout)")
    #expect(summary["store_fallback"]?.stringValue?.contains("Secret Service") == true, "\(status.stdout)")
  }

  @Test func anExplicitKeychainThatIsNotThereOrAnUnknownStoreIsRefused() async throws {
    let state = Self.state()
    defer { try? FileManager.default.removeItem(atPath: state) }
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
    env["APX_STATE_DIR"] = state
    env["APX_TOKEN_STORE"] = "keychain"
    let none = try await APXProcess.run(["auth", "login", "books", "--demo"], environment: env)
    #expect(none.status == 8, "\(none.stderr)")
    #expect(none.stderr.contains("APX_TOKEN_STORE=keychain"), "\(none.stderr)")
    env["APX_TOKEN_STORE"] = "vault"
    let unknown = try await APXProcess.run(["auth", "status"], environment: env)
    #expect(unknown.status == 2, "\(unknown.stderr)")
  }

  @Test func aSecretSetFromStdinIsReadByTheRegistryAsKeychainName() async throws {
    try await KeyringSession.run { bus in
      let state = Self.state()
      defer { try? FileManager.default.removeItem(atPath: state) }
      let registry = try KeychainSecretsFileTests.registry(state)
      let env = [
        "APX_STATE_DIR": state, "APX_TOKEN_STORE": "keychain", "DBUS_SESSION_BUS_ADDRESS": bus,
        "APX_REGISTRY": registry,
      ]
      let set = try await APXProcess.run(
        ["auth", "set-secret", "books_secret"], environment: env, stdin: Data("demo-secret\n".utf8))
      #expect(set.status == 0, "\(set.stderr)")
      #expect(try JSONParser.parse(Array(set.stdout.utf8))["store"] == .string("secret-service"), "\(set.stdout)")
      #expect(try await KeyringSession.lookup("secret:books_secret", bus: bus) == "demo-secret")
      #expect(!FileManager.default.fileExists(atPath: state + "/tokens/books_secret.secret"))
      let call = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "-v"], environment: env)
      #expect(call.status == 0, "\(call.stderr)")
      #expect(!call.stderr.contains("demo-secret"), "the secret is masked in -v")
    }
  }
}

/// `apx auth set-secret` where there is no keychain: a 0600 file, read as `${keychain:NAME}`.
@Suite("Stored secrets in the file store")
struct KeychainSecretsFileTests {
  /// A registry folder whose books API reads its client secret as `${keychain:books_secret}`.
  static func registry(_ dir: String) throws -> String {
    let folder = dir + "/reg"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let books = try String(
      contentsOf: APXProcess.packageRoot.appendingPathComponent("Endpoints/books.json"), encoding: .utf8)
    let edited = books.replacingOccurrences(
      of: "\"${env:BOOKS_CLIENT_SECRET:-demo-secret}\"", with: "\"${keychain:books_secret}\"")
    #expect(edited != books)
    try edited.write(toFile: folder + "/books.json", atomically: true, encoding: .utf8)
    return folder
  }

  @Test func aSecretIsStoredMode0600AndUsedAndAMissingOneSaysHowToStoreIt() async throws {
    let state = KeychainTokenStoreTests.state()
    defer { try? FileManager.default.removeItem(atPath: state) }
    let env = ["APX_STATE_DIR": state, "APX_REGISTRY": try Self.registry(state)]
    let missing = try await APXProcess.run(["call", "--demo", "books.capabilities.get"], environment: env)
    #expect(missing.status == 8, "\(missing.stderr)")
    #expect(missing.stderr.contains("apx auth set-secret books_secret"), "\(missing.stderr)")
    let set = try await APXProcess.run(
      ["auth", "set-secret", "books_secret"], environment: env, stdin: Data("demo-secret\n".utf8))
    #expect(set.status == 0, "\(set.stderr)")
    let file = state + "/tokens/books_secret.secret"
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "demo-secret", "one trailing newline is dropped")
    #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
    let call = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "-v"], environment: env)
    #expect(call.status == 0, "\(call.stderr)")
    #expect(!call.stderr.contains("demo-secret") && !call.stdout.contains("demo-secret"))
    let dry = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "--curl"], environment: env)
    #expect(!dry.stdout.contains("demo-secret") && !dry.stderr.contains("demo-secret"), "\(dry.stdout)")
    let deleted = try await APXProcess.run(["auth", "delete-secret", "books_secret"], environment: env)
    #expect(try JSONParser.parse(Array(deleted.stdout.utf8))["deleted"] == .bool(true))
    #expect(!FileManager.default.fileExists(atPath: file))
    let empty = try await APXProcess.run(["auth", "set-secret", "books_secret"], environment: env, stdin: Data())
    #expect(empty.status == 2, "\(empty.stderr)")
  }
}
