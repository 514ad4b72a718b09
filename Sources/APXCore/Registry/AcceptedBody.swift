/// A request body an endpoint takes besides the one its params describe (registry `accepts`):
/// descriptions list several request media types for one operation (JSON, a form and multipart;
/// a CSV text or a multipart upload). `apx mock` judges a request sent with one of these types by
/// its entry; calls send the body the params describe.
public struct AcceptedBody: Sendable, Hashable {
  /// The media type as declared (`text/csv`, `application/x-www-form-urlencoded`).
  public var contentType: String
  /// A JSON Schema of the body (`{"$ref": "#/schemas/NAME"}` refers to the API's `schemas`):
  /// a JSON body is checked against it, a form's or multipart body's fields against its
  /// `required` members; nil accepts any body of the type.
  public var schema: JSONValue?

  public init(contentType: String, schema: JSONValue? = nil) {
    self.contentType = contentType
    self.schema = schema
  }

  /// The media type without parameters, lowercased: what a request's `Content-Type` is matched by.
  public var mediaType: String { Self.mediaType(of: contentType) }

  /// `text` without parameters (`; charset=...`), trimmed and lowercased.
  public static func mediaType(of text: String) -> String {
    (text.split(separator: ";", maxSplits: 1).first.map { $0.trimmingWhitespace() } ?? "").lowercased()
  }
}

extension RegistryLoader {
  /// The `accepts` list of a REST or SSE endpoint: `[{"content_type": TYPE, "schema": {...}}]`,
  /// each media type once.
  static func decodeAccepts(_ value: JSONValue, at path: [JSONPathComponent], _ r: inout DocumentReader)
    -> [AcceptedBody]
  {
    guard case .array(let items) = value else {
      r.fail(path, "expected a list of {\"content_type\": TYPE, \"schema\": {...}}, got \(value.typeName)")
      return []
    }
    var out: [AcceptedBody] = []
    for (i, item) in items.enumerated() {
      let ip = path + [.index(i)]
      guard let members = r.object(item, at: ip, allowed: ["content_type", "schema"]),
        let type = r.requiredString(members, "content_type", at: ip)
      else { continue }
      let entry = AcceptedBody(contentType: type, schema: optionalSchema(members, "schema", at: ip, &r))
      guard entry.mediaType.split(separator: "/").count == 2, !entry.mediaType.contains(" ") else {
        r.fail(ip + [.key("content_type")], "\"\(type)\" is not a media type", hint: "e.g. \"text/csv\"")
        continue
      }
      if out.contains(where: { $0.mediaType == entry.mediaType }) {
        r.fail(ip + [.key("content_type")], "\"\(type)\" is listed twice", hint: "list each media type once")
        continue
      }
      out.append(entry)
    }
    return out
  }
}
