import APXCore

/// Maps an operation's `responses` to registry `responses`: per status, the media type apx
/// would read (JSON first), its schema with references inlined, and its named examples.
struct ResponseMapping {
  let resolver: ReferenceResolver
  let swagger2: Bool

  /// The declared answers, in document order; an answer that cannot be read is left out.
  func responses(of op: JSONValue, produces: [String], inliner: inout SchemaInliner) -> [EndpointResponse] {
    var out: [EndpointResponse] = []
    for member in op["responses"]?.objectMembers ?? [] where EndpointResponse.isStatusKey(member.key) {
      guard let response = try? resolver.resolve(member.value) else { continue }
      var mapped = EndpointResponse(status: member.key)
      if swagger2 {
        if let schema = response["schema"] {
          mapped.contentType = BodyMapping.choose(produces) ?? "application/json"
          mapped.schema = inliner.copy(schema)
        }
        if let examples = response["examples"]?.objectMembers,
          let example = examples.first(where: { $0.key == mapped.contentType }) ?? examples.first
        {
          mapped.contentType = mapped.contentType ?? example.key
          mapped.examples = [JSONMember("default", example.value)]
        }
      } else if let content = response["content"]?.objectMembers, let type = BodyMapping.choose(content.map(\.key)),
        let media = content.first(where: { $0.key == type })?.value
      {
        mapped.contentType = type
        mapped.schema = media["schema"].map { inliner.copy($0) }
        if let example = media["example"] { mapped.examples.append(JSONMember("default", example)) }
        for e in media["examples"]?.objectMembers ?? [] where !mapped.examples.contains(where: { $0.key == e.key }) {
          guard let value = (try? resolver.resolve(e.value))?["value"] else { continue }
          mapped.examples.append(JSONMember(e.key, value))
        }
      }
      out.append(mapped)
    }
    return out
  }
}
