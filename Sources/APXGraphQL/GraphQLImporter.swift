public import APXCore

/// `apx import graphql`: one `kind: "graphql"` endpoint per root field of a schema. An
/// endpoint is named by its field; when a mutation or subscription field shares a query
/// field's name it is prefixed with `mutation.` or `subscription.`. Its document selects the
/// field's result to `depth` levels (scalars and enums at the leaves, fields that need
/// arguments left out, a type already on the path cut, `__typename` where nothing else can be
/// selected); its arguments become params, their GraphQL types in the descriptions.
public enum GraphQLImporter {
  /// - Parameters:
  ///   - baseURL: the server's origin, the `default` environment (nil for a schema file).
  ///   - path: the GraphQL endpoint's path below the base URL.
  public static func importSchema(
    _ schema: GraphQLSchemaSummary, apiName: String, baseURL: String?, path: String, depth: Int
  ) -> APIDefinition {
    var api = APIDefinition(name: apiName, sourceFile: "")
    if let baseURL { api.environments = [NamedEnvironment(name: "default", baseURL: baseURL)] }
    let roots = schema.rootFields
    let queryNames = Set(roots.filter { $0.operation == "query" }.map(\.field.name))
    for (operation, field) in roots {
      let name = operation != "query" && queryNames.contains(field.name) ? "\(operation).\(field.name)" : field.name
      var endpoint = Endpoint(
        name: name,
        options: .graphql(
          HTTPRoute(method: "POST", path: path),
          GraphQLOptions(document: document(operation, field, schema, depth: depth))),
        description: field.description)
      endpoint.params = field.arguments.map { argument in
        Param(
          name: argument.name, location: .body, type: paramType(argument.type, schema),
          required: argument.type.hasSuffix("!") && argument.defaultValue == nil,
          description: "GraphQL \(argument.type)" + (argument.defaultValue.map { " = \($0)" } ?? "")
            + (argument.description.map { ": \($0)" } ?? ""))
      }
      api.endpoints.append(endpoint)
    }
    return api
  }

  /// `query field($a: T!) { field(a: $a) { ... } }`.
  static func document(
    _ operation: String, _ field: GraphQLSchemaSummary.Field, _ schema: GraphQLSchemaSummary, depth: Int
  )
    -> String
  {
    let variables = field.arguments.map { "$\($0.name): \($0.type)" }.joined(separator: ", ")
    let arguments = field.arguments.map { "\($0.name): $\($0.name)" }.joined(separator: ", ")
    var text = operation + " " + field.name + (variables.isEmpty ? "" : "(\(variables))") + " { " + field.name
    if !arguments.isEmpty { text += "(\(arguments))" }
    if let selection = selection(of: named(field.type), schema, depth: depth, path: []) { text += " " + selection }
    return text + " }"
  }

  /// The selection set of `typeName` to `depth` levels, or nil for a leaf (scalar or enum).
  static func selection(of typeName: String, _ schema: GraphQLSchemaSummary, depth: Int, path: Set<String>) -> String? {
    guard let type = schema.type(named: typeName), ["OBJECT", "INTERFACE", "UNION"].contains(type.kind) else {
      return nil
    }
    var picked: [String] = []
    if depth > 0, type.kind != "UNION" {
      for field in type.fields
      where !field.arguments.contains(where: { $0.type.hasSuffix("!") && $0.defaultValue == nil }) {
        let inner = named(field.type)
        guard let innerType = schema.type(named: inner) else { continue }
        if !["OBJECT", "INTERFACE", "UNION"].contains(innerType.kind) {
          picked.append(field.name)
        } else if depth > 1, !path.contains(inner), inner != typeName,
          let sub = selection(of: inner, schema, depth: depth - 1, path: path.union([typeName]))
        {
          picked.append(field.name + " " + sub)
        }
      }
    }
    if picked.isEmpty { picked = ["__typename"] }
    return "{ " + picked.joined(separator: " ") + " }"
  }

  /// `[Book!]!` → `Book`.
  static func named(_ type: String) -> String { String(type.filter { !"[]!".contains($0) }) }

  /// The param type of a GraphQL input type: an enum travels as its name, a string.
  static func paramType(_ type: String, _ schema: GraphQLSchemaSummary) -> ParamType {
    if type.hasPrefix("[") { return .json }
    if schema.type(named: named(type))?.kind == "ENUM" { return .string }
    switch named(type) {
    case "Int": return .integer
    case "Float": return .number
    case "Boolean": return .boolean
    case "String", "ID": return .string
    default: return .json
    }
  }
}
