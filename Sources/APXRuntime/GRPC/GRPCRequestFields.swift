import APXCore
import APXProtobuf

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Builds the JSON of a gRPC request message from `-d` and `name=value`
/// pairs: declared params are coerced to their declared type and sent under
/// their wire name, undeclared names must be fields of the request message
/// (the error lists the valid ones). `a.b=value` sets a nested field; a name
/// that is not a field of the request but of its only message-typed field
/// (`title=Hello` for `CreateLessonRequest { Lesson lesson }`) goes there.
/// Without the request's descriptor (`--dry-run` of a reflection endpoint,
/// which asks the server nothing) names are taken as they are written.
struct GRPCRequestFields {
  let endpoint: Endpoint
  let apiName: String
  let input: MessageDescriptor?

  /// The fields to set on every request message, in argument order.
  func fields(_ values: [(name: String, value: BoundValue)]) throws -> [(path: [String], value: JSONValue)] {
    var out: [(path: [String], value: JSONValue)] = []
    var seen: [String: Int] = [:]
    for (name, bound) in values {
      var value: JSONValue
      switch bound {
      case .json(let v): value = v
      case .file(let path):
        // A file param of a gRPC endpoint fills a bytes field: proto3 JSON carries bytes as base64.
        value = .string(Data(try FileBytes.read(path)).base64EncodedString())
      }
      let param = endpoint.param(named: name)
      if let param { value = try ParamCoercion.coerce(value, to: param) }
      let path = try resolve(param?.sentName ?? name)
      let key = path.joined(separator: ".")
      if let index = seen[key] {
        // Repeating a name collects its values (ids=a ids=b), as for REST query arrays.
        let previous = out[index].value
        out[index].value = .array((previous.arrayValue ?? [previous]) + [value])
      } else {
        seen[key] = out.count
        out.append((path, value))
      }
    }
    for param in endpoint.params where seen[param.sentName] == nil {
      if let value = param.defaultValue { out.append(([param.sentName], value)) }
    }
    return out
  }

  /// Declared params that must be given, unless `-d` already carries them.
  func checkRequired(_ fields: [(path: [String], value: JSONValue)], data: JSONValue?) throws(APXError) {
    for param in endpoint.requiredParams {
      let given = fields.contains { $0.path.first == param.sentName || $0.path.first == param.name }
      let inData =
        data.map { d in
          d[param.sentName] != nil || input?.field(named: param.sentName).map { d[$0.jsonName] != nil } == true
        } ?? false
      // A field routed into the request's only message field (title=Hello) satisfies that field's param.
      let routed = fields.contains { $0.path.count > 1 && $0.path[0] == param.sentName }
      if !given && !inData && !routed {
        throw APXError(
          .usage, "\(apiName).\(endpoint.name) needs the parameter \"\(param.name)\"",
          hint: "pass \(param.name)=VALUE" + (param.description.map { " (\($0))" } ?? "")
            + ", or give the request with -d")
      }
    }
  }

  /// `value` (from `-d`, or `{}`) with `fields` set.
  static func apply(_ fields: [(path: [String], value: JSONValue)], to base: JSONValue) throws(APXError) -> JSONValue {
    var message = base
    for (path, value) in fields { message = try set(value, at: path[...], in: message, whole: path) }
    return message
  }

  /// Maps an argument name to a field path of the request message.
  func resolve(_ name: String) throws(APXError) -> [String] {
    let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    var type: MessageDescriptor? = input
    for (i, part) in parts.enumerated() {
      guard let current = type else { break }
      guard let field = current.field(named: part) else {
        if i == 0, parts.count == 1, let wrapper = onlyMessageField(containing: part) { return [wrapper, part] }
        throw unknownField(part, in: current, argument: name)
      }
      type = field.isMap ? nil : field.messageType.flatMap { $0.isWellKnownType ? nil : $0 }
    }
    return parts
  }

  /// The request's one non-well-known message field, when it has exactly one and that has a field `name`.
  private func onlyMessageField(containing name: String) -> String? {
    guard let input else { return nil }
    let candidates = input.fields.filter { f in
      !f.isRepeated && !f.isMap && f.messageType.map { !$0.isWellKnownType } == true
    }
    guard candidates.count == 1, let only = candidates.first, only.messageType?.field(named: name) != nil else {
      return nil
    }
    return only.name
  }

  private func unknownField(_ part: String, in type: MessageDescriptor, argument: String) -> APXError {
    let names = type.fields.map(\.name)
    var hint = Suggestions.hint(for: part, in: names + type.fields.map(\.jsonName)) ?? ""
    if !hint.isEmpty { hint += " " }
    hint +=
      names.isEmpty ? "\(type.fullName) has no fields" : "fields of \(type.fullName): \(Suggestions.list(names))"
    return APXError(
      .usage,
      "\(apiName).\(endpoint.name): \(type.fullName) has no field \"\(part)\""
        + (argument == part ? "" : " (in \(argument))"),
      hint: hint)
  }

  private static func set(
    _ value: JSONValue, at path: ArraySlice<String>, in object: JSONValue, whole: [String]
  ) throws(APXError) -> JSONValue {
    guard let key = path.first else { return value }
    var members: [JSONMember]
    switch object {
    case .object(let m): members = m
    case .null: members = []
    default:
      throw APXError(
        .usage, "cannot set \(whole.joined(separator: ".")): \(key)'s parent is \(object.typeName), not an object",
        hint: "give the whole value as JSON with name:='{...}'")
    }
    if let index = members.firstIndex(where: { $0.key == key }) {
      members[index].value = try set(value, at: path.dropFirst(), in: members[index].value, whole: whole)
    } else {
      members.append(JSONMember(key, try set(value, at: path.dropFirst(), in: .null, whole: whole)))
    }
    return .object(members)
  }
}
