/// A string with `${...}` references, parsed once and rendered against values.
///
/// Rules:
/// - a string that is exactly one `${...}` becomes the value it points to,
///   keeping its JSON type (`"${steps.upload.body}"` can be an object);
/// - a reference embedded in other text is interpolated as text: strings
///   without quotes, other values as compact JSON;
/// - `$${` writes a literal `${`;
/// - a reference that cannot be resolved is an error naming it.
///
/// Rendering takes a resolver closure, so this type never reads the
/// environment itself; `TemplateScope` is a ready-made resolver.
public struct Template: Sendable, Hashable {
  /// A piece of a template.
  public enum Part: Sendable, Hashable {
    /// Text copied as is (with `$${` already turned into `${`).
    case literal(String)
    /// A `${...}` reference.
    case reference(TemplateReference)
  }

  /// The pieces in order; adjacent literals are merged.
  public var parts: [Part]
  /// The source text.
  public var text: String

  /// Parses `text`.
  /// - Throws: `APXError` (`.usage`) for an unterminated `${`, an empty or
  ///   malformed reference, with the column where it starts.
  public init(parsing text: String) throws(APXError) {
    self.text = text
    self.parts = try Self.parse(text)
  }

  /// True when `text` contains `${` (so is worth parsing as a template).
  public static func mayContainReferences(_ text: String) -> Bool {
    var previousDollar = false
    for b in text.utf8 {
      if previousDollar && b == UInt8(ascii: "{") { return true }
      previousDollar = b == UInt8(ascii: "$")
    }
    return false
  }

  /// Every reference, in order of appearance.
  public var references: [TemplateReference] {
    parts.compactMap { if case .reference(let r) = $0 { return r } else { return nil } }
  }

  /// True when the template is exactly one reference (its value keeps its type).
  public var isSingleReference: Bool {
    parts.count == 1 && references.count == 1
  }

  /// Renders the template.
  /// - Parameter resolve: returns the value of a reference, `nil` when it has none.
  /// - Returns: the referenced value itself for a single-reference template,
  ///   otherwise a string.
  /// - Throws: the resolver's errors, or an `APXError` naming an unresolved reference.
  public func render(resolve: (TemplateReference) throws(APXError) -> JSONValue?) throws(APXError) -> JSONValue {
    if isSingleReference, case .reference(let ref) = parts[0] {
      return try Self.value(of: ref, resolve: resolve)
    }
    return .string(try renderText(resolve: resolve))
  }

  /// Renders the template as text whatever it holds (a single reference to a
  /// number gives its JSON text; to a string, the string without quotes).
  public func renderText(resolve: (TemplateReference) throws(APXError) -> JSONValue?) throws(APXError) -> String {
    var out = ""
    for part in parts {
      switch part {
      case .literal(let s): out += s
      case .reference(let ref): out += Self.interpolated(try Self.value(of: ref, resolve: resolve))
      }
    }
    return out
  }

  /// The text a value contributes when embedded in a string.
  public static func interpolated(_ value: JSONValue) -> String {
    if case .string(let s) = value { return s }
    return value.compactJSON
  }

  private static func value(
    of ref: TemplateReference, resolve: (TemplateReference) throws(APXError) -> JSONValue?
  ) throws(APXError) -> JSONValue {
    if let value = try resolve(ref) { return value }
    if let fallback = ref.fallback { return .string(fallback) }
    let hint: String
    switch ref.namespace {
    case "env":
      hint =
        "set the environment variable \(ref.variable ?? ref.text), or give a fallback: ${env:\(ref.variable ?? "NAME"):-value}"
    case "input":
      hint = "pass the input on the command line, e.g. \(ref.firstKey ?? "name")=value"
    case "steps":
      hint = "a step can only use the results of steps that ran before it"
    default:
      hint = "check the spelling of the reference"
    }
    throw APXError(.usage, "unresolved reference \(ref)", hint: hint)
  }

  private static func parse(_ text: String) throws(APXError) -> [Part] {
    let scalars = Array(text.unicodeScalars)
    var parts: [Part] = []
    var literal = String.UnicodeScalarView()
    var i = 0
    func flush() {
      if !literal.isEmpty {
        parts.append(.literal(String(literal)))
        literal = String.UnicodeScalarView()
      }
    }
    while i < scalars.count {
      let c = scalars[i]
      if c == "$", i + 2 < scalars.count, scalars[i + 1] == "$", scalars[i + 2] == "{" {
        literal.append(contentsOf: ["$", "{"])
        i += 3
        continue
      }
      guard c == "$", i + 1 < scalars.count, scalars[i + 1] == "{" else {
        literal.append(c)
        i += 1
        continue
      }
      // Find the closing brace, skipping quoted keys such as ["a}b"].
      let start = i + 2
      var j = start
      var inQuotes = false
      while j < scalars.count {
        let d = scalars[j]
        if inQuotes {
          if d == "\\" {
            j += 1
          } else if d == "\"" {
            inQuotes = false
          }
        } else if d == "\"" {
          inQuotes = true
        } else if d == "}" {
          break
        } else if d == "$", j + 1 < scalars.count, scalars[j + 1] == "{" {
          throw APXError(
            .usage, "nested ${ at column \(j + 1) in \(JSONValue.string(text).compactJSON) is not supported",
            hint: "close the reference that starts at column \(i + 1) with '}' first",
            location: SourceLocation(line: 1, column: j + 1))
        }
        j += 1
      }
      guard j < scalars.count else {
        throw APXError(
          .usage, "unterminated ${ at column \(i + 1) in \(JSONValue.string(text).compactJSON)",
          hint: "add the closing '}', or write $${ for a literal ${",
          location: SourceLocation(line: 1, column: i + 1))
      }
      let inner = String(String.UnicodeScalarView(scalars[start..<j]))
      let ref = try TemplateReference(parsing: inner, column: start + 1, template: text)
      flush()
      parts.append(.reference(ref))
      i = j + 1
    }
    flush()
    return parts
  }
}

extension Template {
  /// Renders every string value inside `value` (object keys are left alone),
  /// e.g. a recipe step's `with` block. Strings without `${` are kept as they
  /// are, apart from `$${` which becomes `${`.
  /// - Throws: the first error, with `path` set to where in `value` the
  ///   string is (`.with.job_id`).
  public static func renderStrings(
    in value: JSONValue, resolve: (TemplateReference) throws(APXError) -> JSONValue?
  ) throws(APXError) -> JSONValue {
    var trail: [JSONPathStep] = []
    return try renderStrings(in: value, trail: &trail, resolve: resolve)
  }

  /// Every reference in the strings inside `value`, with where each string is
  /// (for validating a recipe before running it).
  public static func references(in value: JSONValue) throws(APXError) -> [(
    path: JSONPath, reference: TemplateReference
  )] {
    var found: [(path: JSONPath, reference: TemplateReference)] = []
    var trail: [JSONPathStep] = []
    try collect(value, trail: &trail, into: &found)
    return found
  }

  private static func collect(
    _ value: JSONValue, trail: inout [JSONPathStep], into found: inout [(path: JSONPath, reference: TemplateReference)]
  ) throws(APXError) {
    switch value {
    case .string(let s):
      guard mayContainReferences(s) else { return }
      do {
        for ref in try Template(parsing: s).references { found.append((JSONPath(steps: trail), ref)) }
      } catch {
        throw located(error, trail)
      }
    case .array(let items):
      for (i, item) in items.enumerated() {
        trail.append(JSONPathStep(.index(i)))
        defer { trail.removeLast() }
        try collect(item, trail: &trail, into: &found)
      }
    case .object(let members):
      for member in members {
        trail.append(JSONPathStep(.key(member.key)))
        defer { trail.removeLast() }
        try collect(member.value, trail: &trail, into: &found)
      }
    default:
      return
    }
  }

  private static func renderStrings(
    in value: JSONValue, trail: inout [JSONPathStep], resolve: (TemplateReference) throws(APXError) -> JSONValue?
  ) throws(APXError) -> JSONValue {
    switch value {
    case .string(let s):
      guard s.utf8.contains(UInt8(ascii: "$")) else { return value }
      do {
        return try Template(parsing: s).render(resolve: resolve)
      } catch {
        throw located(error, trail)
      }
    case .array(let items):
      var rendered: [JSONValue] = []
      rendered.reserveCapacity(items.count)
      for (i, item) in items.enumerated() {
        trail.append(JSONPathStep(.index(i)))
        defer { trail.removeLast() }
        rendered.append(try renderStrings(in: item, trail: &trail, resolve: resolve))
      }
      return .array(rendered)
    case .object(let members):
      var rendered: [JSONMember] = []
      rendered.reserveCapacity(members.count)
      for member in members {
        trail.append(JSONPathStep(.key(member.key)))
        defer { trail.removeLast() }
        rendered.append(JSONMember(member.key, try renderStrings(in: member.value, trail: &trail, resolve: resolve)))
      }
      return .object(rendered)
    default:
      return value
    }
  }

  private static func located(_ error: APXError, _ trail: [JSONPathStep]) -> APXError {
    var error = error
    if error.path == nil { error.path = JSONPathStep.render(trail) }
    return error
  }
}
