public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Secrets a person stores with `apx auth set-secret NAME` for registries to read as
/// `${keychain:NAME}` (a client secret, an API key): in the token store's keychain (account
/// `secret:NAME`), else in a 0600 file of the state folder. A run reads the ones its APIs name
/// before its first call, and hands them to template resolution beside the environment, under
/// keys no environment variable can have; child processes never get them.
public enum KeychainSecrets {
  static let prefix = "keychain:"

  /// The key a secret travels under in a run's environment dictionary.
  public static func environmentKey(_ name: String) -> String { prefix + name }

  /// Whether `key` is one of those, not an environment variable.
  public static func isSecretKey(_ key: String) -> Bool { key.hasPrefix(prefix) }

  /// Whether `name` can be written `${keychain:NAME}`: a letter or `_`, then letters, digits, `_`.
  public static func isValidName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.isASCII,
      first.properties.isAlphabetic || first == "_"
    else { return false }
    return name.unicodeScalars.allSatisfy {
      $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
    }
  }

  /// The names the API's registry values read as `${keychain:NAME}`: its auth (and its
  /// endpoints'), its headers and its environments' base URLs.
  public static func names(in api: APIDefinition) -> Set<String> {
    var texts: [JSONValue] = api.headers.map { .string($0.value) }
    texts += api.environments.map { .string($0.baseURL) }
    for auth in [api.auth] + api.endpoints.map(\.auth) {
      // A token carried in a WebSocket subprotocol has its own auth's fields.
      if case .subprotocol(_, let token)? = auth {
        texts.append(RegistryWriter.auth(token))
      } else if let auth {
        texts.append(RegistryWriter.auth(auth))
      }
    }
    for endpoint in api.endpoints { texts += endpoint.headers.map { .string($0.value) } }
    var names: Set<String> = []
    for text in texts {
      for (_, reference) in (try? Template.references(in: text)) ?? [] where reference.namespace == "keychain" {
        if let name = reference.variable { names.insert(name) }
      }
    }
    return names
  }

  /// `environment` with the secrets `apis` read, each under `environmentKey(name)`; a secret
  /// that is not stored is left out (its template then says to store it).
  public static func load(
    for apis: [APIDefinition], into environment: [String: String], store: TokenStore?
  ) async throws(APXError) -> [String: String] {
    let names = apis.reduce(into: Set<String>()) { $0.formUnion(Self.names(in: $1)) }
    guard !names.isEmpty, let store else { return environment }
    var out = environment
    for name in names.sorted() {
      if let value = try await read(name, store: store) { out[environmentKey(name)] = value }
    }
    return out
  }

  /// The secret `name`, or nil when none is stored.
  public static func read(_ name: String, store: TokenStore) async throws(APXError) -> String? {
    let account = account(name)
    if let kept = try await store.inVault({ vault throws(APXError) in try await vault.read(account: account) }) {
      return kept.map { String(decoding: $0, as: UTF8.self) }
    }
    return FileManager.default.contents(atPath: path(name, store)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Stores `value` as `name`; returns the store's name (`file`, `secret-service`, `keychain`).
  public static func write(_ name: String, _ value: String, store: TokenStore) async throws(APXError) -> String {
    let account = account(name)
    let inVault: Void? = try await store.inVault { vault throws(APXError) in
      try await vault.write(account: account, label: "apx secret \(name)", Array(value.utf8))
    }
    if inVault != nil {
      _ = unlink(path(name, store))
      return store.storeName
    }
    try store.ensureDirectory()
    do {
      try PrivateFile.write(Array(value.utf8), to: path(name, store))
    } catch {
      throw APXError(
        .auth, "cannot store the secret \(name) in \(error.path): \(String(cString: strerror(error.code)))",
        hint: "check the folder's permissions and free space, or set APX_STATE_DIR to a writable folder")
    }
    return "file"
  }

  /// Deletes the secret `name`; true when one was stored.
  public static func delete(_ name: String, store: TokenStore) async throws(APXError) -> Bool {
    let account = account(name)
    let inVault =
      try await store.inVault { vault throws(APXError) in try await vault.delete(account: account) } ?? false
    return unlink(path(name, store)) == 0 || inVault
  }

  static func account(_ name: String) -> String { "secret:" + name }

  /// Beside the token files: `<state>/tokens/NAME.secret`, mode 0600 in the 0700 folder.
  static func path(_ name: String, _ store: TokenStore) -> String { store.directory + "/" + name + ".secret" }
}
