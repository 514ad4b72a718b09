/// Walks a parsed JSON document while decoding a definition file, collecting
/// every problem as an `APXError` with file, line:column and JSON path instead
/// of stopping at the first one. Shared by the registry and recipe loaders.
public struct DocumentReader {
  public let document: JSONDocument
  public let file: String
  /// Problems found so far, in document order.
  public private(set) var errors: [APXError] = []

  public init(document: JSONDocument, file: String) {
    self.document = document
    self.file = file
  }

  /// Parses `bytes`; a syntax error becomes one located `APXError`.
  public static func parse(_ bytes: [UInt8], file: String) throws(APXError) -> DocumentReader {
    do {
      return DocumentReader(document: try JSONParser.parseDocument(bytes), file: file)
    } catch {
      throw APXError(
        .invalidDefinition, "invalid JSON: \(error.message)", hint: "fix the JSON syntax at this position",
        file: file, location: error.location)
    }
  }

  /// Records a problem at `path`.
  public mutating func fail(_ path: [JSONPathComponent], _ message: String, hint: String? = nil) {
    errors.append(
      APXError(
        .invalidDefinition, message, hint: hint, file: file, location: document.location(of: path),
        path: path.rendered))
  }

  /// The members of the object at `path`, or nil (with an error) when it is something else.
  public mutating func object(_ value: JSONValue, at path: [JSONPathComponent], allowed: [String]? = nil)
    -> [JSONMember]?
  {
    guard case .object(let members) = value else {
      fail(path, "expected an object, got \(value.typeName)")
      return nil
    }
    if let allowed {
      var seen = Set<String>()
      for member in members {
        if !seen.insert(member.key).inserted {
          fail(path + [.key(member.key)], "duplicate key \"\(member.key)\"", hint: "remove one of them")
        }
        if !allowed.contains(member.key) {
          let hint =
            Suggestions.hint(for: member.key, in: allowed) ?? "allowed keys: \(allowed.joined(separator: ", "))"
          fail(path + [.key(member.key)], "unknown key \"\(member.key)\"", hint: hint)
        }
      }
    }
    return members
  }

  /// A required string member.
  public mutating func requiredString(_ members: [JSONMember], _ key: String, at path: [JSONPathComponent]) -> String? {
    guard let value = members.first(where: { $0.key == key })?.value else {
      fail(path, "missing required key \"\(key)\"")
      return nil
    }
    return string(value, at: path + [.key(key)])
  }

  /// An optional string member.
  public mutating func optionalString(_ members: [JSONMember], _ key: String, at path: [JSONPathComponent]) -> String? {
    guard let value = members.first(where: { $0.key == key })?.value else { return nil }
    return string(value, at: path + [.key(key)])
  }

  /// A string value.
  public mutating func string(_ value: JSONValue, at path: [JSONPathComponent]) -> String? {
    guard case .string(let s) = value else {
      fail(path, "expected a string, got \(value.typeName)")
      return nil
    }
    return s
  }

  /// An optional boolean member.
  public mutating func optionalBool(_ members: [JSONMember], _ key: String, at path: [JSONPathComponent]) -> Bool? {
    guard let value = members.first(where: { $0.key == key })?.value else { return nil }
    guard case .bool(let b) = value else {
      fail(path + [.key(key)], "expected true or false, got \(value.typeName)")
      return nil
    }
    return b
  }

  /// An optional number member within `range`.
  public mutating func optionalNumber(
    _ members: [JSONMember], _ key: String, at path: [JSONPathComponent], range: ClosedRange<Double>
  ) -> Double? {
    guard let value = members.first(where: { $0.key == key })?.value else { return nil }
    return number(value, at: path + [.key(key)], range: range)
  }

  /// A number value within `range`.
  public mutating func number(_ value: JSONValue, at path: [JSONPathComponent], range: ClosedRange<Double>) -> Double? {
    // Formatted only for the message (printing a Double is costly at its first use).
    var hint: String { "use a value from \(format(range.lowerBound)) to \(format(range.upperBound))" }
    guard let d = value.doubleValue else {
      fail(path, "expected a number, got \(value.typeName)")
      return nil
    }
    guard d.isFinite, range.contains(d) else {
      // 1e309 parses as infinity: name the text as written, not "number".
      fail(path, "\(Self.numberText(value)) is out of range", hint: hint)
      return nil
    }
    return d
  }

  /// An optional integer member within `range`.
  public mutating func optionalInt(
    _ members: [JSONMember], _ key: String, at path: [JSONPathComponent], range: ClosedRange<Int>
  ) -> Int? {
    guard let value = members.first(where: { $0.key == key })?.value else { return nil }
    return int(value, at: path + [.key(key)], range: range)
  }

  /// An integer value within `range`.
  public mutating func int(_ value: JSONValue, at path: [JSONPathComponent], range: ClosedRange<Int>) -> Int? {
    guard case .number(let text) = value else {
      fail(path, "expected a whole number, got \(value.typeName)")
      return nil
    }
    guard let i = value.intValue else {
      // nil for fractions and for whole numbers beyond 64 bits alike: tell them apart.
      let isWhole =
        !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        || (value.doubleValue.map { !$0.isFinite || $0.rounded() == $0 } ?? false)
      if isWhole {
        fail(
          path, "\(Self.numberText(value)) is out of range",
          hint: "use a value from \(range.lowerBound) to \(range.upperBound)")
      } else {
        fail(path, "expected a whole number, got the fraction \(Self.numberText(value))")
      }
      return nil
    }
    guard range.contains(i) else {
      fail(path, "\(i) is out of range", hint: "use a value from \(range.lowerBound) to \(range.upperBound)")
      return nil
    }
    return i
  }

  /// An optional array of strings (a single string is accepted as a one-element list).
  public mutating func optionalStrings(_ members: [JSONMember], _ key: String, at path: [JSONPathComponent])
    -> [String]?
  {
    guard let value = members.first(where: { $0.key == key })?.value else { return nil }
    let p = path + [.key(key)]
    if case .string(let s) = value { return [s] }
    guard case .array(let items) = value else {
      fail(p, "expected an array of strings, got \(value.typeName)")
      return nil
    }
    var out: [String] = []
    for (i, item) in items.enumerated() {
      if let s = string(item, at: p + [.index(i)]) { out.append(s) }
    }
    return out
  }

  /// An optional array of numbers.
  public mutating func optionalNumbers(
    _ members: [JSONMember], _ key: String, at path: [JSONPathComponent], range: ClosedRange<Double>
  ) -> [Double]? {
    guard let value = members.first(where: { $0.key == key })?.value else { return nil }
    let p = path + [.key(key)]
    guard case .array(let items) = value else {
      fail(p, "expected an array of numbers, got \(value.typeName)")
      return nil
    }
    return items.enumerated().compactMap { number($0.element, at: p + [.index($0.offset)], range: range) }
  }

  /// An optional object of string values (headers, form fields).
  public mutating func optionalStringMap(_ members: [JSONMember], _ key: String, at path: [JSONPathComponent])
    -> [HeaderField]?
  {
    guard let value = members.first(where: { $0.key == key })?.value else { return nil }
    let p = path + [.key(key)]
    guard let entries = object(value, at: p) else { return nil }
    var out: [HeaderField] = []
    for entry in entries {
      if let s = string(entry.value, at: p + [.key(entry.key)]) { out.append(HeaderField(entry.key, s)) }
    }
    return out
  }

  /// An optional object of header names to string values, each name and value checked
  /// against HTTP's syntax (`HeaderSyntax`) where it is written.
  public mutating func optionalHeaderMap(_ members: [JSONMember], _ key: String, at path: [JSONPathComponent])
    -> [HeaderField]?
  {
    guard let fields = optionalStringMap(members, key, at: path) else { return nil }
    for field in fields {
      checkHeader(name: field.name, value: nil, at: path + [.key(key), .key(field.name)])
      checkHeader(name: field.name, value: field.value, at: path + [.key(key), .key(field.name)])
    }
    return fields
  }

  /// Records an error at `path` when `name` (with no `value`) or `value` cannot be sent as a header.
  public mutating func checkHeader(name: String, value: String?, at path: [JSONPathComponent]) {
    let problem = value.map { HeaderSyntax.valueProblem($0, name: name) } ?? HeaderSyntax.nameProblem(name)
    if let problem {
      fail(path, problem, hint: "header names are single words such as X-Api-Key; values are one line of text")
    }
  }

  private func format(_ d: Double) -> String {
    NumberText.plain(d)
  }

  /// A number as written in the file, shortened if long.
  private static func numberText(_ value: JSONValue) -> String {
    guard case .number(let text) = value else { return value.typeName }
    return text.count > 40 ? String(text.prefix(37)) + "..." : text
  }
}
