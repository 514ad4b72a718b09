public import APXCore
import GraphQL
import OrderedCollections

/// A GraphQL schema as apx shows it: the root operation types and every named type with its
/// fields, arguments and values, types written as in SDL (`[Book!]!`). Read from an
/// introspection result, or from SDL built into a schema by GraphQLSwift and introspected locally.
public struct GraphQLSchemaSummary: Sendable {
  /// An argument or an input field: `name: Type = default`.
  public struct Argument: Sendable, Hashable {
    public var name: String
    public var type: String
    public var defaultValue: String?
    public var description: String?

    /// `name: Type` or `name: Type = default`.
    public var signature: String { "\(name): \(type)" + (defaultValue.map { " = \($0)" } ?? "") }
  }

  public struct Field: Sendable, Hashable {
    public var name: String
    public var type: String
    public var arguments: [Argument]
    public var description: String?
    public var deprecated: Bool
  }

  public struct TypeInfo: Sendable, Hashable {
    /// `OBJECT`, `INPUT_OBJECT`, `ENUM`, `SCALAR`, `INTERFACE` or `UNION`.
    public var kind: String
    public var name: String
    public var description: String?
    public var fields: [Field]
    public var inputFields: [Argument]
    public var enumValues: [String]
    public var possibleTypes: [String]
  }

  public var queryType: String?
  public var mutationType: String?
  public var subscriptionType: String?
  /// Every named type, in the schema's order.
  public var types: [TypeInfo]

  /// The named type, or nil.
  public func type(named name: String) -> TypeInfo? { types.first { $0.name == name } }

  /// The root fields: each with `query`, `mutation` or `subscription`.
  public var rootFields: [(operation: String, field: Field)] {
    [("query", queryType), ("mutation", mutationType), ("subscription", subscriptionType)].flatMap { operation, name in
      (name.flatMap(type(named:))?.fields ?? []).map { (operation, $0) }
    }
  }

  /// Reads an introspection result: `{"data": {"__schema": ...}}`, `{"__schema": ...}` or the
  /// schema object itself. `origin` names it in messages.
  public init(introspection: JSONValue, origin: String) throws(APXError) {
    var schema = introspection
    if let data = schema["data"] { schema = data }
    if let inner = schema["__schema"] { schema = inner }
    guard case .array(let types)? = schema["types"] else {
      throw APXError(
        .expectation, "\(origin) is not a GraphQL introspection result (no __schema.types)",
        hint: "give an introspection result ({\"data\": {\"__schema\": ...}}) or a .graphql SDL file")
    }
    queryType = schema["queryType"]?["name"]?.stringValue
    mutationType = schema["mutationType"]?["name"]?.stringValue
    subscriptionType = schema["subscriptionType"]?["name"]?.stringValue
    self.types = types.compactMap { value in
      guard let name = value["name"]?.stringValue, !name.hasPrefix("__") else { return nil }
      return TypeInfo(
        kind: value["kind"]?.stringValue ?? "", name: name, description: value["description"]?.stringValue,
        fields: (value["fields"]?.arrayValue ?? []).compactMap(Self.field),
        inputFields: (value["inputFields"]?.arrayValue ?? []).compactMap(Self.argument),
        enumValues: (value["enumValues"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue },
        possibleTypes: (value["possibleTypes"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
    }
  }

  /// Builds the schema an SDL document describes (GraphQLSwift's `buildSchema`) and reads it by
  /// running the introspection query against it locally.
  public static func fromSDL(_ text: String, origin: String) async throws(APXError) -> GraphQLSchemaSummary {
    let schema: GraphQLSchema
    do {
      schema = try buildSchema(source: text)
    } catch let error as GraphQLError {
      throw APXError(
        .usage, "\(origin): the GraphQL schema does not build",
        cause: error.message.split(separator: "\n").first.map(String.init))
    } catch {
      throw APXError(.usage, "\(origin): the GraphQL schema does not build", cause: "\(error)")
    }
    let result: GraphQLResult
    do {
      result = try await graphql(schema: schema, request: GraphQLIntrospection.query)
    } catch {
      throw APXError(.usage, "\(origin): the GraphQL schema cannot be introspected", cause: "\(error)")
    }
    guard let data = result.data else {
      throw APXError(
        .usage, "\(origin): the GraphQL schema cannot be introspected", cause: result.errors.first?.message)
    }
    return try GraphQLSchemaSummary(introspection: json(data), origin: origin)
  }

  static func json(_ map: Map) -> JSONValue {
    switch map {
    case .undefined, .null: .null
    case .bool(let value): .bool(value)
    case .number(let number): .number(number.description)
    case .string(let text): .string(text)
    case .array(let items): .array(items.map(json))
    case .dictionary(let members): .object(members.map { JSONMember($0.key, json($0.value)) })
    }
  }

  static func field(_ value: JSONValue) -> Field? {
    guard let name = value["name"]?.stringValue else { return nil }
    return Field(
      name: name, type: typeName(value["type"]), arguments: (value["args"]?.arrayValue ?? []).compactMap(argument),
      description: value["description"]?.stringValue, deprecated: value["isDeprecated"]?.boolValue ?? false)
  }

  static func argument(_ value: JSONValue) -> Argument? {
    guard let name = value["name"]?.stringValue else { return nil }
    return Argument(
      name: name, type: typeName(value["type"]), defaultValue: value["defaultValue"]?.stringValue,
      description: value["description"]?.stringValue)
  }

  /// A type reference as SDL writes it: `NON_NULL` adds `!`, `LIST` brackets.
  static func typeName(_ value: JSONValue?, depth: Int = 0) -> String {
    guard let value, depth < 32 else { return "?" }
    switch value["kind"]?.stringValue {
    case "NON_NULL": return typeName(value["ofType"], depth: depth + 1) + "!"
    case "LIST": return "[" + typeName(value["ofType"], depth: depth + 1) + "]"
    default: return value["name"]?.stringValue ?? "?"
    }
  }
}
