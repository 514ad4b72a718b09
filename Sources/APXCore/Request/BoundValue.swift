/// A parameter value after files and stdin have been read: what request
/// building works with.
public enum BoundValue: Sendable, Hashable {
  /// A JSON value (text arguments are `.string` until coerced).
  case json(JSONValue)
  /// A file sent by reference and streamed from disk, never read whole.
  case file(path: String)
}

/// Turns text arguments into the JSON type a parameter declares.
public enum ParamCoercion {
  /// Coerces `value` to `param.type`; a mismatch is a usage error naming the parameter.
  public static func coerce(_ value: JSONValue, to param: Param) throws(APXError) -> JSONValue {
    let result: JSONValue
    switch (param.type, value) {
    case (.integer, .string(let s)):
      let digits = s.first == "-" ? s.dropFirst() : Substring(s)
      guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
        throw mismatch(param, value, "a whole number")
      }
      // JSON forbids leading zeros: `007` would make the request body invalid JSON.
      let significant = digits.drop { $0 == "0" }
      result = .number((s.first == "-" ? "-" : "") + (significant.isEmpty ? "0" : String(significant)))
    case (.integer, .number(let text)):
      guard !text.contains("."), !text.lowercased().contains("e") else {
        throw mismatch(param, value, "a whole number")
      }
      result = value
    case (.number, .string(let s)):
      guard (try? JSONParser.parse(s))?.typeName == "number" else { throw mismatch(param, value, "a number") }
      result = .number(s)
    case (.boolean, .string(let s)):
      switch s.lowercased() {
      case "true", "yes", "1", "on": result = .bool(true)
      case "false", "no", "0", "off": result = .bool(false)
      default: throw mismatch(param, value, "true or false")
      }
    case (.json, .string(let s)):
      // A JSON param given as text: parse it when it is JSON, else keep the string.
      result = (try? JSONParser.parse(s)) ?? value
    case (.array, .string(let s)):
      result = .array(s.split(separator: ",", omittingEmptySubsequences: false).map { .string(String($0)) })
    case (.string, .string), (.file, .string), (.number, .number), (.boolean, .bool), (.json, _), (.array, .array):
      result = value
    case (.string, .number), (.string, .bool):
      result = value
    default:
      throw mismatch(param, value, expected(param.type))
    }
    if let allowed = param.allowed, !allowed.contains(result),
      !allowed.contains(where: { $0.stringValue == result.stringValue && result.stringValue != nil })
    {
      let list = allowed.map { $0.compactJSON }.joined(separator: ", ")
      throw APXError(.usage, "\(param.name) must be one of \(list), got \(result.compactJSON)")
    }
    if let problem = param.constraints.problem(result) {
      throw APXError(
        .usage, "\(param.name) \(problem)",
        hint: "the API's description says so; `apx describe` shows the parameter's constraints")
    }
    return result
  }

  static func expected(_ type: ParamType) -> String {
    switch type {
    case .string: "a string"
    case .integer: "a whole number"
    case .number: "a number"
    case .boolean: "true or false"
    case .file: "a file (name=@path)"
    case .json: "JSON"
    case .array: "an array"
    }
  }

  static func mismatch(_ param: Param, _ value: JSONValue, _ expected: String) -> APXError {
    APXError(
      .usage, "\(param.name) must be \(expected), got \(value.compactJSON)",
      hint: param.type == .array || param.type == .json ? "pass JSON with \(param.name):=..." : nil)
  }
}
