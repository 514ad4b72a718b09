import APXCore
import APXRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `$XDG_CONFIG_HOME/apx/config.json` (else `~/.config/apx/config.json`): defaults a user
/// keeps between calls. Flags override environment variables, which override this file, which
/// overrides apx's built-in defaults. Every key is optional; an unknown key is an error, so a
/// typo never goes unnoticed.
///
///     {"registry": ["~/apis"], "environments": {"books": "staging"}, "output": "json",
///      "color": "never", "timeout": 30, "retry": 3}
struct ConfigFile: Equatable {
  /// Registry folders or files, after `--registry` and `APX_REGISTRY`.
  var registry: [String]?
  /// The environment to call, per API, after `--env` and `APX_ENV`.
  var environments: [String: String] = [:]
  var output: OutputFormat?
  var color: ColorMode?
  var timeout: Double?
  var retry: Int?
  /// The proxy, after `--proxy` and the proxy environment variables (`ProxyRules`).
  var proxy: String?
  /// The hosts that go direct, after `--noproxy` and `NO_PROXY`.
  var noproxy: String?

  /// The keys the file may hold.
  static let keys = ["registry", "environments", "output", "color", "timeout", "retry", "proxy", "noproxy"]
  /// A config file is small; a larger one is not a config file.
  static let maxBytes = 1_048_576

  /// Where the file is looked for, or nil when neither `XDG_CONFIG_HOME` nor `HOME` is set.
  static func path(environment: [String: String]) -> String? {
    UserDirectories.configHome(environment: environment).map { $0 + "/apx/config.json" }
  }

  /// The file at `path`, or an empty configuration when there is none; exit 3 when it is not
  /// a valid config file.
  static func load(path: String) throws(APXError) -> ConfigFile {
    guard let bytes = try readIfPresent(path) else { return ConfigFile() }
    func invalid(_ message: String, hint: String) -> APXError {
      APXError(.invalidDefinition, message, hint: hint, file: path)
    }
    let value: JSONValue
    do {
      value = try JSONParser.parse(bytes)
    } catch {
      throw invalid("not valid JSON (\(error))", hint: "fix the file, or remove it to use the defaults")
    }
    guard case .object(let members) = value else {
      throw invalid("must hold a JSON object", hint: #"for example {"output": "json", "timeout": 30}"#)
    }
    var config = ConfigFile()
    for member in members {
      let v = member.value
      switch member.key {
      case "registry":
        guard let items = v.arrayValue, let paths = items.compactMapAll(\.stringValue), !paths.isEmpty else {
          throw invalid("\"registry\" must be a list of folders or files", hint: #"e.g. "registry": ["~/apis"]"#)
        }
        config.registry = paths.map { expandHome($0) }
      case "environments":
        guard case .object(let pairs) = v, let names = pairs.map(\.value).compactMapAll(\.stringValue) else {
          throw invalid(
            "\"environments\" must map API names to environment names",
            hint: #"e.g. "environments": {"books": "staging"}"#)
        }
        config.environments = Dictionary(zip(pairs.map(\.key), names)) { _, last in last }
      case "output":
        guard let text = v.stringValue, let format = OutputFormat(rawValue: text) else {
          throw invalid("\"output\" must be json, ndjson, raw or table", hint: "as -o takes it")
        }
        config.output = format
      case "color":
        guard let text = v.stringValue, let mode = ColorMode(rawValue: text) else {
          throw invalid("\"color\" must be auto, always or never", hint: "as --color takes it")
        }
        config.color = mode
      case "timeout":
        guard let seconds = v.doubleValue, ConnectionOptions.timeoutRange.contains(seconds) else {
          throw invalid(
            "\"timeout\" must be a number of seconds from 0.001 to 1000000000", hint: "as --timeout takes it")
        }
        config.timeout = seconds
      case "retry":
        guard case .number(let text) = v, let attempts = Int(text), (1...100).contains(attempts) else {
          throw invalid("\"retry\" must be a number of attempts from 1 to 100", hint: "as --retry takes it")
        }
        config.retry = attempts
      case "proxy":
        guard let text = v.stringValue else {
          throw invalid("\"proxy\" must be a proxy URL", hint: #"e.g. "proxy": "http://proxy.example:3128""#)
        }
        if !text.trimmingWhitespace().isEmpty {
          do {
            _ = try ProxyServer(url: text, source: "\"proxy\"")
          } catch {
            throw invalid(error.message, hint: error.hint ?? "as --proxy takes it")
          }
        }
        config.proxy = text
      case "noproxy":
        guard let text = v.stringValue else {
          throw invalid(
            "\"noproxy\" must be a comma-separated list of hosts", hint: #"e.g. "noproxy": "localhost,10.0.0.0/8""#)
        }
        config.noproxy = text
      default:
        throw invalid(
          "unknown key \"\(member.key)\"",
          hint: Suggestions.hint(for: member.key, in: keys) ?? "the keys: " + keys.joined(separator: ", "))
      }
    }
    return config
  }

  /// The file's bytes, nil when it does not exist.
  private static func readIfPresent(_ path: String) throws(APXError) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    if fd < 0 {
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw APXError(
        .invalidDefinition, "cannot read \(path): \(String(cString: strerror(errno)))",
        hint: "fix its permissions, or remove it to use the defaults", file: path)
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n <= 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
      if bytes.count > maxBytes {
        throw APXError(
          .invalidDefinition, "\(path) is larger than 1 MiB, too large for a config file", hint: "check the file",
          file: path)
      }
    }
    return bytes
  }

  /// `~/x` as `$HOME/x` (a JSON file has no shell to expand it).
  private static func expandHome(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/"), let home = getenv("HOME").map({ String(cString: $0) }) else {
      return path
    }
    return home + path.dropFirst()
  }
}

extension Array {
  /// Every element transformed, or nil when any transform gives nil.
  fileprivate func compactMapAll<T>(_ transform: (Element) -> T?) -> [T]? {
    var out: [T] = []
    for element in self {
      guard let t = transform(element) else { return nil }
      out.append(t)
    }
    return out
  }
}
