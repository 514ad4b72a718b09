public import APXCore
import Synchronization

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

/// The token store: one token per API and environment, in the OS keychain when there is one
/// (`TokenVault`), else as a JSON file under `<state dir>/tokens/` (folder mode 0700, files
/// mode 0600) replaced atomically (temp file + rename) so a reader never sees half a file.
/// Either way a lock file per token in that folder guards read-refresh-write cycles across
/// processes. A token found in a file while the keychain is in use moves into it, and the file
/// is removed.
public struct TokenStore: Sendable {
  /// The folder holding the token files and the lock files.
  public let directory: String
  /// The keychain the tokens live in; nil: the files.
  public let vault: (any TokenVault)?
  /// Whether the keychain was asked for (`APX_TOKEN_STORE=keychain`): its failures are errors.
  /// Else a keychain that fails is left for the files, and `fallback` says why.
  public let vaultRequired: Bool
  private let box: FallbackBox

  /// A store in `directory` (created on first write), its tokens in `vault` when given.
  public init(directory: String, vault: (any TokenVault)? = nil, vaultRequired: Bool = false) {
    self.directory = directory
    self.vault = vault
    self.vaultRequired = vaultRequired
    self.box = FallbackBox()
  }

  /// The store under the user's state directory (`UserDirectories.stateDirectory`), in the
  /// keychain `APX_TOKEN_STORE` (or the machine) chooses; nil when there is no state folder.
  /// - Throws: exit 2 for an unknown `APX_TOKEN_STORE`, exit 8 for `keychain` where there is none.
  public static func standard(environment: [String: String]) throws(APXError) -> TokenStore? {
    guard let state = UserDirectories.stateDirectory(environment: environment) else { return nil }
    switch try TokenStoreChoice.from(environment: environment) {
    case .file:
      return TokenStore(directory: state + "/tokens")
    case .keychain(let explicit):
      guard let vault = DefaultVault.make(environment: environment) else {
        throw APXError(
          .auth, "APX_TOKEN_STORE=keychain, but there is no keychain: \(DefaultVault.missing)",
          hint: "set APX_TOKEN_STORE=file, or unset it to use the keychain only where there is one")
      }
      return TokenStore(directory: state + "/tokens", vault: vault, vaultRequired: explicit)
    }
  }

  /// Where tokens are kept now: `file`, `secret-service` or `keychain`.
  public var storeName: String { activeVault?.name ?? "file" }

  /// Why a keychain this store would have used was left for the files, if it was.
  public var fallback: String? { box.reason.withLock { $0 } }

  /// The vault in use: none once one that was not required has failed.
  private var activeVault: (any TokenVault)? { fallback == nil ? vault : nil }

  /// The keychain account of a token: `API/ENVIRONMENT`.
  static func account(api: String, environment: String) -> String { api + "/" + environment }

  /// Runs `body` on the vault; a failure of one not required leaves it for the files.
  func inVault<T>(_ body: (any TokenVault) async throws(APXError) -> T) async throws(APXError) -> T? {
    guard let vault = activeVault else { return nil }
    do {
      return try await body(vault)
    } catch {
      if vaultRequired { throw error }
      box.reason.withLock { $0 = $0 ?? error.message }
      return nil
    }
  }

  /// The file that holds the token of `api` in `environment`.
  public func path(api: String, environment: String) -> String {
    directory + "/" + Self.fileName(api) + "@" + Self.fileName(environment) + ".json"
  }

  /// Names made safe for a file name (no `/`, no `..`, no `@`).
  static func fileName(_ name: String) -> String {
    let encoded = PercentEncoding.encode(name, allowed: .pathSegment)
    return encoded.hasPrefix(".") ? "%2E" + encoded.dropFirst() : encoded
  }

  /// The stored token, or nil when there is none or it is unreadable (a damaged one is
  /// treated as no token: apx will fetch a new one). With a keychain, a token still in its file
  /// moves into the keychain now, and the file is removed.
  /// - Throws: when a required keychain fails.
  public func read(api: String, environment: String) async throws(APXError) -> StoredToken? {
    let account = Self.account(api: api, environment: environment)
    let kept = try await inVault { vault throws(APXError) in try await vault.read(account: account) }
    // Found in the keychain (the outer optional says the keychain answered, the inner what it held).
    if case .some(.some(let bytes)) = kept { return try? JSONDecoder().decode(StoredToken.self, from: Data(bytes)) }
    guard let token = readFile(api: api, environment: environment) else { return nil }
    if activeVault != nil {
      let moved: Void? = try await inVault { vault throws(APXError) in
        try await vault.write(account: account, label: Self.label(token), try Self.encode(token, pretty: false))
      }
      if moved != nil { _ = unlink(path(api: api, environment: environment)) }
    }
    return token
  }

  /// The token in its file, or nil.
  func readFile(api: String, environment: String) -> StoredToken? {
    guard let data = FileManager.default.contents(atPath: path(api: api, environment: environment)) else { return nil }
    return try? JSONDecoder().decode(StoredToken.self, from: data)
  }

  /// Every stored token (the keychain's, then files not moved yet), sorted by API then environment.
  public func all() async throws(APXError) -> [StoredToken] {
    var tokens: [StoredToken] = []
    let kept = try await inVault { vault throws(APXError) in try await vault.all() } ?? []
    for value in kept {
      if let token = try? JSONDecoder().decode(StoredToken.self, from: Data(value)) { tokens.append(token) }
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for name in names.filter({ $0.hasSuffix(".json") }) {
      guard let data = FileManager.default.contents(atPath: directory + "/" + name),
        let token = try? JSONDecoder().decode(StoredToken.self, from: data),
        !tokens.contains(where: { $0.api == token.api && $0.environment == token.environment })
      else { continue }
      tokens.append(token)
    }
    return tokens.sorted { ($0.api, $0.environment) < ($1.api, $1.environment) }
  }

  static func label(_ token: StoredToken) -> String { "apx token for \(token.api) (\(token.environment))" }

  static func encode(_ token: StoredToken, pretty: Bool) throws(APXError) -> [UInt8] {
    let encoder = JSONEncoder()
    // One line in a keychain: `secret-tool search` prints each value on one line.
    encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
    do { return Array(try encoder.encode(token)) } catch {
      throw APXError(.internalFailure, "cannot encode the token for \(token.api)")
    }
  }

  /// Writes `token` with mode 0600: to a new temp file first, then renamed
  /// over the old one, so a crash or a concurrent reader never sees a partial file.
  /// With a keychain the token goes there, and a file copy is removed.
  public func write(_ token: StoredToken) async throws(APXError) {
    let target = path(api: token.api, environment: token.environment)
    let account = Self.account(api: token.api, environment: token.environment)
    let inKeychain: Void? = try await inVault { vault throws(APXError) in
      try await vault.write(account: account, label: Self.label(token), try Self.encode(token, pretty: false))
    }
    if inKeychain != nil {
      _ = unlink(target)
      return
    }
    try ensureDirectory()
    let data = try Self.encode(token, pretty: true)
    do {
      try PrivateFile.write(data, to: target)
    } catch {
      throw storeFailure("\(error.step) the token file \(error.path)", code: error.code)
    }
  }

  /// Deletes the stored token; true when there was one.
  @discardableResult
  public func delete(api: String, environment: String) async throws(APXError) -> Bool {
    let account = Self.account(api: api, environment: environment)
    let inKeychain = try await inVault { vault throws(APXError) in try await vault.delete(account: account) } ?? false
    let target = path(api: api, environment: environment)
    if unlink(target) == 0 { return true }
    if errno == ENOENT { return inKeychain }
    throw failure("cannot delete", target)
  }

  /// Holds the lock of one token (a `.lock` file beside it) while `body` runs.
  /// - Throws: an `APXError` whose `underlying` is a `TokenStoreFailure` when the folder or
  ///   the lock file cannot be created (a read-only or full disk); `body`'s errors as they are.
  public func withLock<T: Sendable>(
    api: String, environment: String, _ body: () async throws -> T
  ) async throws -> T {
    try ensureDirectory()
    let lockPath = path(api: api, environment: environment) + ".lock"
    let lock: FileLock
    do {
      lock = try await FileLock.acquire(path: lockPath)
    } catch let error as APXError {
      guard let failure = error.underlying as? FileLockFailure, failure.opening else { throw error }
      throw storeFailure("cannot create the token lock file \(lockPath)", code: failure.code)
    }
    defer { lock.unlock() }
    return try await body()
  }

  /// Creates the folder (and its parents) with mode 0700 (tokens are nobody else's business).
  func ensureDirectory() throws(APXError) {
    if let isDirectory = FileKind.isDirectory(directory) {
      if !isDirectory {
        throw APXError(.auth, "\(directory) is a file, not a folder", hint: "remove it or set APX_STATE_DIR")
      }
      return
    }
    do {
      try PrivateFile.makeDirectory(directory)
    } catch {
      throw storeFailure("cannot create the token folder \(directory)", code: error.code)
    }
  }

  private func failure(_ what: String, _ path: String) -> APXError {
    storeFailure("\(what) the token file \(path)", code: errno)
  }

  /// An error of the store's disk (`.auth`), with the `TokenStoreFailure` that tells callers so.
  private func storeFailure(_ message: String, code: Int32) -> APXError {
    let failure = TokenStoreFailure(directory: directory, code: code)
    return APXError(
      .auth, "\(message): \(failure.reason)",
      hint: "check the folder's permissions and free space, or set APX_STATE_DIR to a writable folder",
      cause: failure.reason, underlying: failure)
  }
}

/// Why a keychain not required was left for the files, shared by the copies of one store.
private final class FallbackBox: Sendable {
  let reason = Mutex<String?>(nil)
}

/// The token store's folder cannot be written (read-only, full, no permission): a fetched
/// token can still be used by the process that fetched it.
public struct TokenStoreFailure: Error, Sendable {
  /// The token folder.
  public var directory: String
  /// The `errno` of the failed call.
  public var code: Int32

  /// The system's text for `code`, e.g. "Read-only file system".
  public var reason: String { String(cString: strerror(code)) }
}
