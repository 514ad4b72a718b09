public import APXCore

extension RequestPreview {
  /// The JSON `apx call --dry-run` prints (docs/output.md, "Seeing a call before sending it"):
  ///
  /// - HTTP: `{"kind", "method", "url", "headers": {name: value}, "body"}`; a JSON body as
  ///   JSON, other text as `{"content_type", "text"}`, a file as `{"file", "content_type"}`,
  ///   stdin as `{"stdin": true, ...}`, multipart as `{"multipart": [{"name", "value"} |
  ///   {"name", "file", "content_type"}]}`; a header sent twice has an array of values.
  /// - gRPC: `{"kind": "grpc", "target", "method": "package.Service/Method", "metadata",
  ///   "message"}` (a client stream: `"messages": [...]`, or `{"stdin": true, "fields"}`),
  ///   `"schema"` (`"reflection"`, `{"protoset"}` or `{"proto", "import_paths"}`) and
  ///   `"checked"` (whether the message was checked against the schema).
  ///
  /// - Parameter masked: secrets as `***` (false: as they would be sent).
  public func json(masked: Bool) -> JSONValue {
    switch self {
    case .http(let p):
      let mask = masked ? p.mask : SecretMask()
      return .object([
        JSONMember("kind", .string(p.kind.rawValue)),
        JSONMember("method", .string(p.plan.method)),
        JSONMember("url", .string(mask.mask(p.plan.url))),
        JSONMember("headers", Self.headers(masked ? mask.mask(p.plan.headers) : p.plan.headers)),
        JSONMember("body", RecipeDryRun.describe(p.plan.body, mask: mask, masking: masked)),
      ])
    case .grpc(let g):
      let mask = masked ? g.mask : SecretMask()
      var members: [JSONMember] = [
        JSONMember("kind", .string("grpc")),
        JSONMember("target", .string(g.target.description)),
        JSONMember("method", .string("\(g.service)/\(g.method)")),
        JSONMember("metadata", Self.headers(masked ? mask.mask(g.metadata) : g.metadata)),
      ]
      switch g.messages {
      case .single(let message): members.append(JSONMember("message", Self.masked(message, mask)))
      case .stream(let list): members.append(JSONMember("messages", .array(list.map { Self.masked($0, mask) })))
      case .stdin(let fields):
        members.append(
          JSONMember(
            "messages", .object([JSONMember("stdin", .bool(true)), JSONMember("fields", Self.masked(fields, mask))]))
        )
      }
      let schema: JSONValue =
        switch g.schema {
        case .reflection: .string("reflection")
        case .protoset(let path): .object([JSONMember("protoset", .string(path))])
        case .protoFiles(let files, let imports):
          .object([
            JSONMember("proto", .array(files.map(JSONValue.string))),
            JSONMember("import_paths", .array(imports.map(JSONValue.string))),
          ])
        }
      members.append(JSONMember("schema", schema))
      members.append(JSONMember("checked", .bool(g.checked)))
      return .object(members)
    }
  }

  /// Header fields as an object; a name sent more than once gets an array of its values.
  static func headers(_ fields: [HeaderField]) -> JSONValue {
    var members: [JSONMember] = []
    for field in fields {
      if let index = members.firstIndex(where: { $0.key.lowercased() == field.name.lowercased() }) {
        let previous = members[index].value
        members[index].value = .array((previous.arrayValue ?? [previous]) + [.string(field.value)])
      } else {
        members.append(JSONMember(field.name, .string(field.value)))
      }
    }
    return .object(members)
  }

  /// `value` with every secret in its strings masked.
  static func masked(_ value: JSONValue, _ mask: SecretMask) -> JSONValue { mask.mask(value) }
}
