import APXCore
import Testing

/// Helpers for registry loader tests: load text, collect errors, find positions.
enum RegistryFixture {
  /// Loads `text` as `file`; records an issue and returns nil when it does not load.
  static func load(
    _ text: String, file: String = "sample.json", sourceLocation: Testing.SourceLocation = #_sourceLocation
  )
    -> APIDefinition?
  {
    do {
      return try RegistryLoader.load(Array(text.utf8), file: file)
    } catch {
      Issue.record("expected the registry to load, got:\n\(error.description)", sourceLocation: sourceLocation)
      return nil
    }
  }

  /// The errors loading `text` reports; records an issue when it loads.
  static func errors(
    _ text: String, file: String = "sample.json", sourceLocation: Testing.SourceLocation = #_sourceLocation
  )
    -> [APXError]
  {
    do {
      let api = try RegistryLoader.load(Array(text.utf8), file: file)
      Issue.record("expected errors, but \(api.name) loaded", sourceLocation: sourceLocation)
      return []
    } catch {
      return error.errors
    }
  }

  /// The only error loading `text` reports; records an issue when there are none or several.
  static func error(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> APXError? {
    let all = errors(text, sourceLocation: sourceLocation)
    if all.count != 1 {
      Issue.record(
        "expected exactly one error, got \(all.count):\n\(APXErrors(all).description)", sourceLocation: sourceLocation)
    }
    return all.first
  }

  /// The 1-based line:column where `needle` first starts in `text` (columns in Unicode scalars).
  static func position(of needle: String, in text: String) -> APXCore.SourceLocation? {
    guard let start = text.indices.first(where: { text[$0...].hasPrefix(needle) }) else { return nil }
    let before = text[..<start]
    let line = before.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex
    return APXCore.SourceLocation(line: line, column: before[lineStart...].unicodeScalars.count + 1)
  }

  /// A registry document with one API-level `top` fragment and the given endpoints object body.
  static func document(top: String = "", endpoints: String) -> String {
    """
    {
      "api": "sample",
      "environments": {
        "demo": { "base_url": "http://127.0.0.1:8080" },
        "prod": { "base_url": "https://api.example.com" }
      },\(top.isEmpty ? "" : "\n  " + top + ",")
      "endpoints": {
    \(endpoints)
      }
    }
    """
  }
}
