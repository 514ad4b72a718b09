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

/// The on-disk token store: one JSON file per API and environment under
/// `<state dir>/tokens/` (folder mode 0700, files mode 0600), replaced
/// atomically (temp file + rename) so a reader never sees half a file, and
/// guarded by a lock file per token for read-refresh-write cycles.
public struct TokenFileStore: Sendable {
  /// The folder holding the token files.
  public let directory: String

  /// A store in `directory` (created on first write).
  public init(directory: String) { self.directory = directory }

  /// The store under the user's state directory (`UserDirectories.stateDirectory`), or nil when there is none.
  public static func standard(environment: [String: String]) -> TokenFileStore? {
    UserDirectories.stateDirectory(environment: environment).map { TokenFileStore(directory: $0 + "/tokens") }
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

  /// The stored token, or nil when there is none or the file is unreadable
  /// (a damaged file is treated as no token: apx will fetch a new one).
  public func read(api: String, environment: String) -> StoredToken? {
    guard let data = FileManager.default.contents(atPath: path(api: api, environment: environment)) else { return nil }
    return try? JSONDecoder().decode(StoredToken.self, from: data)
  }

  /// Every stored token, sorted by API then environment.
  public func all() -> [StoredToken] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
    return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
      FileManager.default.contents(atPath: directory + "/" + name).flatMap {
        try? JSONDecoder().decode(StoredToken.self, from: $0)
      }
    }
  }

  /// Writes `token` with mode 0600: to a new temp file first, then renamed
  /// over the old one, so a crash or a concurrent reader never sees a partial file.
  public func write(_ token: StoredToken) throws(APXError) {
    try ensureDirectory()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    let data: Data
    do { data = try encoder.encode(token) } catch {
      throw APXError(.internalFailure, "cannot encode the token for \(token.api)")
    }
    let target = path(api: token.api, environment: token.environment)
    do {
      try PrivateFile.write(Array(data), to: target)
    } catch {
      throw storeFailure("\(error.step) the token file \(error.path)", code: error.code)
    }
  }

  /// Deletes the stored token; true when there was one.
  @discardableResult
  public func delete(api: String, environment: String) throws(APXError) -> Bool {
    let target = path(api: api, environment: environment)
    if unlink(target) == 0 { return true }
    if errno == ENOENT { return false }
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
