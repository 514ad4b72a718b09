public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
  // `struct stat` under MemberImportVisibility (see FileChunks); links nothing.
  import CoreFoundation
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds and loads registry files from the registry folders, in order. An
/// entry may also name one `<api>.json` file (`--registry ./my-api.json`).
/// Only the one file a call needs is read and parsed (`<api>.json`), so a
/// large registry costs a call nothing but a stat per folder.
public struct RegistryFiles: Sendable {
  /// Folders (or single `<api>.json` files) searched in order; the first `<api>.json` found wins.
  public var directories: [String]

  public init(directories: [String]) { self.directories = directories }

  /// The default search path: `./Endpoints`, then `$XDG_CONFIG_HOME/apx/endpoints`
  /// (or `~/.config/apx/endpoints`), on every platform.
  public static func defaultDirectories(environment: [String: String]) -> [String] {
    var dirs = ["Endpoints"]
    if let config = UserDirectories.configHome(environment: environment) { dirs.append(config + "/apx/endpoints") }
    return dirs
  }

  /// Every registry file: API name (the file name without `.json`) and path, first folder wins.
  public func list() -> [(api: String, path: String)] {
    var seen = Set<String>()
    var out: [(String, String)] = []
    for dir in directories {
      if let api = Self.apiName(ofFile: dir) {
        if seen.insert(api).inserted { out.append((api, dir)) }
        continue
      }
      guard let names = DirectoryListing.names(in: dir) else { continue }
      for name in names.sorted() where name.hasSuffix(".json") && !name.hasSuffix(".schema.json") {
        let api = String(name.dropLast(5))
        if seen.insert(api).inserted { out.append((api, dir + "/" + name)) }
      }
    }
    return out
  }

  /// The path of `<api>.json`, or an error that lists the known APIs.
  public func path(of api: String) throws(APXError) -> String {
    for dir in directories {
      if let named = Self.apiName(ofFile: dir) {
        if named == api { return dir }
        continue
      }
      let path = dir + "/" + api + ".json"
      // `lstat`, not `fileExists`: a link that loops or dangles is reported by the read
      // ("its symbolic links form a loop"), where `list()` names it, not as a missing API.
      var info = stat()
      if lstat(path, &info) == 0 { return path }
    }
    let known = list().map(\.api)
    let searched = directories.joined(separator: ", ")
    throw APXError(
      .usage, "no API named \"\(api)\" in the registry",
      hint: Suggestions.hint(for: api, in: known)
        ?? (known.isEmpty
          ? "no registry files found in \(searched); pass --registry DIR (or FILE.json) or set APX_REGISTRY"
          : "known APIs: \(Suggestions.list(known)) (searched \(searched))"),
      reason: .unknownAPI)
  }

  /// Loads and checks one API's registry file.
  public func load(api: String) throws -> APIDefinition {
    let path = try path(of: api)
    return try Self.checkName(try Self.load(path: path), api: api, path: path)
  }

  /// Loads what a call of `api.endpoint` needs: the API-wide settings and that endpoint (see
  /// `RegistryLoader.load(_:file:endpoint:)`); `apx validate` is what checks the rest.
  public func load(api: String, endpoint: String) throws -> APIDefinition {
    let path = try path(of: api)
    let definition = try RegistryLoader.load(try FileBytes.read(path), file: path, endpoint: endpoint)
    return try Self.checkName(definition, api: api, path: path)
  }

  private static func checkName(_ definition: APIDefinition, api: String, path: String) throws -> APIDefinition {
    if definition.name != api {
      throw APXError(
        .invalidDefinition, "\(path) defines the API \"\(definition.name)\", but its file name says \"\(api)\"",
        hint: "name the file \(definition.name).json or change \"api\" to \"\(api)\"", file: path)
    }
    return definition
  }

  /// The API a registry entry names when it is a `.json` file rather than a folder.
  static func apiName(ofFile entry: String) -> String? {
    guard entry.hasSuffix(".json") else { return nil }
    guard FileKind.isDirectory(entry) == false else {
      return nil
    }
    let name = entry.split(separator: "/").last.map(String.init) ?? entry
    return String(name.dropLast(5))
  }

  /// Loads one registry file by path.
  public static func load(path: String) throws -> APIDefinition {
    try RegistryLoader.load(try FileBytes.read(path), file: path)
  }
}

/// Per-user folders, by the XDG rule on every platform (macOS included): command-line tools
/// there keep their settings under `~/.config` too, and one rule keeps the docs true everywhere.
public enum UserDirectories {
  /// Configuration home: `$XDG_CONFIG_HOME`, else `~/.config`.
  public static func configHome(environment: [String: String]) -> String? {
    if let x = environment["XDG_CONFIG_HOME"], !x.isEmpty { return x }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.config"
  }

  /// State home for tokens and journals: `$APX_STATE_DIR`, `$XDG_STATE_HOME/apx`, else `~/.local/state/apx`.
  public static func stateDirectory(environment: [String: String]) -> String? {
    if let x = environment["APX_STATE_DIR"], !x.isEmpty { return x }
    if let x = environment["XDG_STATE_HOME"], !x.isEmpty { return x + "/apx" }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.local/state/apx"
  }
}
