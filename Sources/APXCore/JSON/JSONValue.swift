/// A JSON value that keeps what the server sent: object members in their
/// original order (duplicates included) and numbers as their exact source
/// text, so `9007199254740993` and `1.10` print back unchanged.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  /// The number's literal text, already validated against the JSON grammar.
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([JSONMember])
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable, Hashable {
  public var key: String
  public var value: JSONValue

  public init(_ key: String, _ value: JSONValue) {
    self.key = key
    self.value = value
  }
}

extension JSONValue {
  /// The value of the first member named `key`, when this is an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first(where: { $0.key == key })?.value
  }

  /// The element at `index`, when this is an array and the index is in range.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let items) = self, items.indices.contains(index) else { return nil }
    return items[index]
  }

  /// The string payload, when this is a string.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The members, when this is an object.
  public var objectMembers: [JSONMember]? {
    if case .object(let m) = self { return m }
    return nil
  }

  /// The elements, when this is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The number as a Double, when this is a number.
  public var doubleValue: Double? {
    if case .number(let text) = self { return Double(text) }
    return nil
  }

  /// The number as an Int, when this is a number with an integral value.
  public var intValue: Int? {
    guard case .number(let text) = self else { return nil }
    if let i = Int(text) { return i }
    if let d = Double(text), d.rounded() == d, abs(d) < 9.2e18 { return Int(d) }
    return nil
  }

  /// The boolean payload, when this is a boolean.
  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// A short name of the value's JSON type, for error messages.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  /// Makes a number value from an integer.
  public static func int(_ value: Int) -> JSONValue { .number(String(value)) }

  /// Makes a number value from a double; integral values print without a fraction.
  public static func double(_ value: Double) -> JSONValue {
    if value.isFinite, value.rounded() == value, abs(value) < 1e15 {
      return .number(String(Int(value)))
    }
    return .number(value.isFinite ? "\(value)" : "null")
  }
}
