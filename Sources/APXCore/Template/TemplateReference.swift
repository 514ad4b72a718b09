/// One `${...}` reference inside a template string.
///
/// `${env:NAME}` (optionally `${env:NAME:-fallback}`) names an environment
/// variable; every other reference is a namespace followed by a jq-style path
/// into that namespace's value: `${input.csv}`, `${steps.upload.body.job_id}`,
/// `${steps.watch.events[0].data}`. Names in the path may contain `-`
/// (`${steps.upload-csv.status}`).
public struct TemplateReference: Sendable, Hashable, CustomStringConvertible {
  /// `env`, `input`, `steps`, … (the caller decides which ones exist).
  public var namespace: String
  /// For `env`: the variable name. Nil for path references.
  public var variable: String?
  /// For `env`: the text after `:-`, used when the variable is unset.
  public var fallback: String?
  /// The path into the namespace's value (`.upload.body.job_id`); `.` when the
  /// reference names the whole namespace, and for `env`.
  public var path: JSONPath
  /// The text between `${` and `}`.
  public var text: String

  /// Makes a reference (normally produced by `Template(parsing:)`).
  public init(namespace: String, variable: String? = nil, fallback: String? = nil, path: JSONPath, text: String) {
    self.namespace = namespace
    self.variable = variable
    self.fallback = fallback
    self.path = path
    self.text = text
  }

  /// The reference as written: `${steps.upload.body.job_id}`.
  public var description: String { "${" + text + "}" }

  /// For `steps.ID...` references: the step id (the path's first key).
  public var firstKey: String? {
    if case .key(let k) = path.steps.first?.kind { return k }
    return nil
  }

  /// Parses the text between `${` and `}`; `column` is where that text starts
  /// in the template (1-based, Unicode scalars), for error messages.
  init(parsing text: String, column: Int, template: String) throws(APXError) {
    self.text = text
    let scalars = Array(text.unicodeScalars)
    func isNameStart(_ c: Unicode.Scalar) -> Bool {
      ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_"
    }
    func isNameChar(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || ("0"..."9").contains(c) }
    func failure(_ message: String, at offset: Int, hint: String) -> APXError {
      APXError(
        .usage,
        "invalid reference ${\(text)} in \(JSONValue.string(template).compactJSON) at column \(column + offset): \(message)",
        hint: hint, location: SourceLocation(line: 1, column: column + offset))
    }
    let examples = "references look like ${env:NAME}, ${input.NAME} or ${steps.ID.body.field}"
    guard let first = scalars.first, isNameStart(first) else {
      throw failure(
        scalars.isEmpty ? "the reference is empty" : "expected a namespace name such as env, input or steps", at: 0,
        hint: examples)
    }
    var i = 1
    while i < scalars.count, isNameChar(scalars[i]) { i += 1 }
    namespace = String(String.UnicodeScalarView(scalars[0..<i]))
    if namespace == "env" || namespace == "keychain" {
      guard i < scalars.count, scalars[i] == ":" else {
        throw failure(
          "expected ':' after \(namespace)", at: i,
          hint: namespace == "env"
            ? "environment variables are written ${env:NAME}" : "keychain secrets are written ${keychain:NAME}")
      }
      let nameStart = i + 1
      var j = nameStart
      while j < scalars.count, isNameChar(scalars[j]) { j += 1 }
      guard j > nameStart, isNameStart(scalars[nameStart]) else {
        throw failure(
          "expected a \(namespace == "env" ? "variable" : "secret") name after '\(namespace):'", at: nameStart,
          hint: "write ${\(namespace):NAME}: a letter or '_', then letters, digits and '_'")
      }
      variable = String(String.UnicodeScalarView(scalars[nameStart..<j]))
      if j < scalars.count {
        guard scalars[j] == ":", j + 1 < scalars.count, scalars[j + 1] == "-" else {
          throw failure(
            "unexpected '\(scalars[j])' after the variable name", at: j,
            hint: "write ${env:NAME}, or ${env:NAME:-fallback} for a value used when NAME is unset")
        }
        fallback = String(String.UnicodeScalarView(scalars[(j + 2)...]))
      }
      path = JSONPath(steps: [])
      return
    }
    variable = nil
    fallback = nil
    if i == scalars.count {
      path = JSONPath(steps: [])
      return
    }
    guard scalars[i] == "." || scalars[i] == "[" else {
      throw failure("expected '.' or '[' after the namespace '\(namespace)'", at: i, hint: examples)
    }
    let rest = String(String.UnicodeScalarView(scalars[i...]))
    path = try JSONPath(parsingTemplatePath: rest, columnOffset: column + i - 1)
  }
}
