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

/// Named cookie jars kept between runs (`--session NAME`, `apx session`): one JSON file per
/// session under `<state dir>/sessions/`, mode 0600 in a 0700 folder, replaced atomically.
public struct CookieSessionStore: Sendable {
  /// The folder holding the session files.
  public let directory: String

  public init(directory: String) { self.directory = directory }

  /// The store under the user's state directory, or nil when there is none.
  public static func standard(environment: [String: String]) -> CookieSessionStore? {
    UserDirectories.stateDirectory(environment: environment).map { CookieSessionStore(directory: $0 + "/sessions") }
  }

  /// Why `name` cannot name a session, or nil: letters, digits, `.`, `_` and `-`, not
  /// starting with a dot, so it is a file name as it is.
  public static func problem(name: String) -> String? {
    let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    guard !name.isEmpty, name.count <= 100, allowed, !name.hasPrefix(".") else {
      return "a session name is 1 to 100 letters, digits, '.', '_' or '-', not starting with '.'"
    }
    return nil
  }

  func path(_ name: String) -> String { directory + "/" + name + ".json" }

  /// The jar stored as `name`; an empty jar when there is none yet.
  /// - Throws: `.config` when the file exists but is not a session file.
  public func read(_ name: String) throws(APXError) -> CookieJar {
    let file = path(name)
    guard let data = FileManager.default.contents(atPath: file) else { return CookieJar() }
    do {
      return try CookieJarJSON.decode(JSONParser.parse(Array(data)))
    } catch {
      throw APXError(
        .invalidDefinition, "the cookie session \"\(name)\" cannot be read",
        hint: "clear it with `apx session clear \(name)`",
        file: file, cause: "\(error)")
    }
  }

  /// Stores `jar` as `name`.
  public func write(_ jar: CookieJar, as name: String) throws(APXError) {
    do {
      try PrivateFile.makeDirectory(directory)
      try PrivateFile.write(Array((CookieJarJSON.encode(jar).compactJSON + "\n").utf8), to: path(name))
    } catch {
      throw APXError(
        .internalFailure, "\(error.step) \(error.path): \(String(cString: strerror(error.code)))",
        hint: "check the folder's permissions and free space, or set APX_STATE_DIR to a writable folder")
    }
  }

  /// Changes the stored jar `name` under the session's lock: reads it, hands it to `change`,
  /// and writes it back, so that two runs ending together each add what they received.
  public func update(_ name: String, _ change: (CookieJar) -> CookieJar) async throws -> CookieJar {
    do {
      try PrivateFile.makeDirectory(directory)
    } catch {
      throw APXError(
        .internalFailure, "\(error.step) \(error.path): \(String(cString: strerror(error.code)))",
        hint: "check the folder's permissions and free space, or set APX_STATE_DIR to a writable folder")
    }
    let lock = try await FileLock.acquire(
      path: path(name) + ".lock", status: .internalFailure, what: "cookie session lock")
    defer { lock.unlock() }
    let jar = change(try read(name))
    try write(jar, as: name)
    return jar
  }

  /// The names of the stored sessions, sorted.
  public func names() -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return files.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }.sorted()
  }

  /// Deletes session `name`; false when there was none.
  public func delete(_ name: String) throws(APXError) -> Bool {
    if unlink(path(name)) == 0 { return true }
    if errno == ENOENT { return false }
    throw APXError(.internalFailure, "cannot delete \(path(name)): \(String(cString: strerror(errno)))")
  }
}
