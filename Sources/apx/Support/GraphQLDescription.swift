import APXCore
import APXGraphQL

/// `apx describe URL --graphql Type.field` (a field's arguments and return type) and
/// `--graphql TypeName` (a type's fields, input fields, values or members), as JSON.
enum GraphQLDescription {
  static func json(_ name: String, in schema: GraphQLSchemaSummary) throws(APXError) -> JSONValue {
    let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
    guard let typeName = parts.first, !typeName.isEmpty else {
      throw APXError(.usage, "--graphql needs Type.field or TypeName", hint: "e.g. --graphql Query.book")
    }
    guard let type = schema.type(named: typeName) else {
      throw APXError(
        .usage, "the schema has no type \(typeName)",
        hint: Suggestions.hint(for: typeName, in: schema.types.map(\.name))
          ?? "its types: \(Suggestions.list(schema.types.map(\.name)))")
    }
    guard parts.count == 2 else { return typeJSON(type) }
    let fields = type.fields.isEmpty ? type.inputFields.map(\.name) : type.fields.map(\.name)
    if let field = type.fields.first(where: { $0.name == parts[1] }) {
      var members = [
        JSONMember("type", .string(type.name)), JSONMember("field", .string(field.name)),
        JSONMember("arguments", .array(field.arguments.map(argumentJSON))),
        JSONMember("returns", .string(field.type)),
      ]
      if let description = field.description { members.append(JSONMember("description", .string(description))) }
      if field.deprecated { members.append(JSONMember("deprecated", .bool(true))) }
      return .object(members)
    }
    if let input = type.inputFields.first(where: { $0.name == parts[1] }) {
      return .object([JSONMember("type", .string(type.name))] + argumentMembers(input))
    }
    throw APXError(
      .usage, "\(type.name) has no field \(parts[1])",
      hint: Suggestions.hint(for: parts[1], in: fields) ?? "its fields: \(Suggestions.list(fields))")
  }

  static func typeJSON(_ type: GraphQLSchemaSummary.TypeInfo) -> JSONValue {
    var members = [JSONMember("name", .string(type.name)), JSONMember("kind", .string(type.kind))]
    if let description = type.description { members.append(JSONMember("description", .string(description))) }
    if !type.fields.isEmpty {
      members.append(
        JSONMember(
          "fields",
          .array(
            type.fields.map { field in
              .object([
                JSONMember("name", .string(field.name)),
                JSONMember("arguments", .string(field.arguments.map(\.signature).joined(separator: ", "))),
                JSONMember("type", .string(field.type)),
              ])
            })))
    }
    if !type.inputFields.isEmpty {
      members.append(JSONMember("input_fields", .array(type.inputFields.map(argumentJSON))))
    }
    if !type.enumValues.isEmpty {
      members.append(JSONMember("values", .array(type.enumValues.map(JSONValue.string))))
    }
    if !type.possibleTypes.isEmpty {
      members.append(JSONMember("possible_types", .array(type.possibleTypes.map(JSONValue.string))))
    }
    return .object(members)
  }

  static func argumentJSON(_ argument: GraphQLSchemaSummary.Argument) -> JSONValue {
    .object(argumentMembers(argument))
  }

  static func argumentMembers(_ argument: GraphQLSchemaSummary.Argument) -> [JSONMember] {
    var members = [JSONMember("name", .string(argument.name)), JSONMember("type", .string(argument.type))]
    if let value = argument.defaultValue { members.append(JSONMember("default", .string(value))) }
    if let description = argument.description { members.append(JSONMember("description", .string(description))) }
    return members
  }
}
