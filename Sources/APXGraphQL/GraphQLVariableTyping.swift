public import APXCore

extension GraphQLDocument.Variable {
  /// The named type under any list and non-null wrappers: `[Int!]!` → `Int`.
  public var namedType: String { String(type.filter { !"[]!".contains($0) }) }

  /// The JSON value of a `name=TEXT` item for this variable, by its declared type. GraphQL
  /// servers refuse the string `"2"` for an `Int`, so the built-in scalars `Int`, `Float` and
  /// `Boolean` (or lists of them: each repeated item is one element) take a number or a boolean.
  /// `ID`, `String`, enums and custom scalars travel as the text; input objects need `name:=JSON`.
  /// - Throws: a usage error, naming the variable and its type, for text that is not of it.
  public func value(ofText text: String, origin: String) throws(APXError) -> JSONValue {
    func refuse(_ expected: String) -> APXError {
      // A credential's value is not repeated in a message, as `-v` and errors never show one.
      let shown = CredentialParams.isCredential(name) ? "***" : text
      return APXError(
        .usage, "\(origin): $\(name) is \(type), so \(name)=\(shown) must be \(expected)",
        hint: "give \(expected), or send the JSON as it is with \(name):=JSON")
    }
    switch namedType {
    case "Int":
      // GraphQL's Int is a signed 32-bit integer; anything else is refused by every server.
      guard let n = Int32(text) else { throw refuse("a whole number from -2147483648 to 2147483647") }
      return .number(String(n))
    case "Float":
      guard case .number(let digits)? = try? JSONParser.parse(text) else { throw refuse("a number") }
      return .number(digits)
    case "Boolean":
      switch text {
      case "true": return .bool(true)
      case "false": return .bool(false)
      default: throw refuse("true or false")
      }
    default:
      return .string(text)
    }
  }
}

extension GraphQLDocument.Operation {
  /// `arguments` with each plain `name=TEXT` item typed by the variable it fills
  /// (`Variable.value(ofText:origin:)`); `name:=JSON`, files and nested keys are left as given.
  public func typing(_ arguments: [ParamArgument], origin: String) throws(APXError) -> [ParamArgument] {
    var typed = arguments
    for index in typed.indices {
      guard typed[index].nested == nil, case .text(let text) = typed[index].value,
        let variable = variables.first(where: { $0.name == typed[index].name })
      else { continue }
      typed[index].value = .json(try variable.value(ofText: text, origin: origin))
    }
    return typed
  }
}
