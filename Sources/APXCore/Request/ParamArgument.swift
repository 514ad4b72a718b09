/// One `name=value`-style argument of `apx call` / `apx run`.
///
/// Syntax (HTTPie-like, chosen because our users know it):
/// - `name=text` — a string (coerced to the parameter's declared type)
/// - `name:=json` — a raw JSON value (`count:=3`, `tags:='["a","b"]'`)
/// - `name=@path` — a file: streamed as a file parameter, or its text as the value
/// - `name:=@path` — a JSON value read from a file
/// - `name=@-.path` — take the value at a jq-style path from the JSON document on stdin
///   (`apx call books.imports.create csv=@books.csv | apx call books.imports.watch job_id=@-.job_id`)
/// - `name=\@literal` — a string that starts with `@`
public struct ParamArgument: Sendable, Hashable {
  /// What the argument's value is, before files and stdin are read.
  public enum Value: Sendable, Hashable {
    case text(String)
    case json(JSONValue)
    case file(path: String)
    case jsonFile(path: String)
    /// A jq-style path into the JSON document read from stdin.
    case stdinPath(String)
  }

  /// The parameter bound; for a nested item, the root of its key (`user` of `user[name]`),
  /// empty for a top-level array item (`[]:=1`).
  public var name: String
  public var value: Value
  /// The whole key of a nested item (`user[name]=Ann`); nil for a plain name.
  public var nested: NestedPath?

  public init(name: String, value: Value, nested: NestedPath? = nil) {
    self.name = name
    self.value = value
    self.nested = nested
  }

  /// Parses one argument; a malformed one is a usage error that shows the syntax.
  public init(parsing text: String) throws(APXError) {
    guard let eq = text.firstIndex(of: "=") else {
      throw APXError(
        .usage, "\"\(text)\" is not a parameter", hint: "write name=value, name:=json, name=@file or name=@-.path")
    }
    var name = String(text[..<eq])
    let rest = String(text[text.index(after: eq)...])
    let isJSON = name.hasSuffix(":")
    if isJSON { name.removeLast() }
    guard !name.isEmpty else {
      throw APXError(.usage, "\"\(text)\" has no parameter name before '='", hint: "write name=value")
    }
    try self.init(name: name, isJSON: isJSON, rest: rest)
  }

  /// The argument `name=rest` (or `name:=rest` when `isJSON`), the name already split off.
  init(name: String, isJSON: Bool, rest: String) throws(APXError) {
    self.name = name
    if rest == "@" {
      let item = name + (isJSON ? ":=@" : "=@")
      throw APXError(
        .usage, "\(item) names no file after '@'",
        hint: "write \(item)FILE" + (isJSON ? "" : ", or \(name)=\\@ for the text \"@\""))
    }
    if isJSON {
      if rest.hasPrefix("@") {
        value = .jsonFile(path: String(rest.dropFirst()))
      } else {
        do {
          value = .json(try JSONParser.parse(rest))
        } catch {
          throw APXError(
            .usage, "the value of \(name):= is not valid JSON: \(error.message) at column \(error.location.column)",
            hint: "quote it for the shell, e.g. \(name):='[\"a\",\"b\"]', or use \(name)=text for a string")
        }
      }
    } else if rest.hasPrefix("@-.") || rest == "@-." {
      value = .stdinPath(String(rest.dropFirst(2)))
    } else if rest.hasPrefix("@") {
      value = .file(path: String(rest.dropFirst()))
    } else if rest.hasPrefix("\\@") {
      value = .text(String(rest.dropFirst()))
    } else {
      value = .text(rest)
    }
  }
}
