import APXCore

/// Maps a request body (3.x `requestBody`, Swagger 2.0 `in: body` / `formData`)
/// to body parameters, a body encoding and a body template.
struct BodyMapping {
  let schemas: SchemaReader

  /// What a body becomes in the registry.
  struct Result {
    var params: [Param] = []
    var encoding: BodyEncoding?
    var example: JSONValue?
    /// A Content-Type header to send when it is not what the encoding implies.
    var contentType: String?
    /// The other media types the operation takes, with their schemas as written.
    var others: [(type: String, schema: JSONValue?)] = []
  }

  /// JSON media types: `application/json`, `application/vnd.x+json`, `application/json; charset=utf-8`.
  static func isJSON(_ type: String) -> Bool {
    let t = type.lowercased().split(separator: ";").first.map { $0.trimmingSpaces } ?? ""
    return t == "application/json" || t.hasSuffix("+json") || t == "text/json"
  }

  /// The media type apx sends: JSON first, then form, multipart, then the first other one.
  static func choose(_ types: [String]) -> String? {
    types.first(where: isJSON)
      ?? types.first(where: { $0.lowercased().hasPrefix("application/x-www-form-urlencoded") })
      ?? types.first(where: { $0.lowercased().hasPrefix("multipart/form-data") })
      ?? types.first
  }

  /// A 3.x request body.
  func requestBody(_ body: JSONValue) throws(OperationSkip) -> Result {
    guard let content = body["content"]?.objectMembers, !content.isEmpty else { return Result() }
    // A JSON body's fields are required only when the body is; a form's fields are the body
    // itself, so the schema's `required` holds unless the body is declared optional.
    let declared = body["required"]?.boolValue
    let required = declared ?? false
    guard let type = Self.choose(content.map(\.key)),
      let media = content.first(where: { $0.key == type })?.value
    else { return Result() }
    var example = media["example"] ?? firstExample(media["examples"])
    let schema = media["schema"]
    if example == nil, schema != nil { example = schemas.template(schema) }
    if example == .null { example = nil }
    let isForm = ["application/x-www-form-urlencoded", "multipart/form-data"].contains {
      type.lowercased().hasPrefix($0)
    }
    var result = try mapped(
      type: type, schema: schema, required: isForm ? (declared ?? true) : required,
      encodings: media["encoding"]?.objectMembers ?? [], example: example)
    result.others = content.filter { $0.key != type }.map { ($0.key, $0.value["schema"]) }
    return result
  }

  /// The value of the first entry of a 3.x `examples` map (an Example object, possibly a `$ref`).
  func firstExample(_ examples: JSONValue?) -> JSONValue? {
    guard let first = examples?.objectMembers?.first?.value else { return nil }
    return schemas.resolved(first)?["value"]
  }

  /// Body parameters for a media type and schema.
  func mapped(type: String, schema: JSONValue?, required: Bool, encodings: [JSONMember], example: JSONValue?)
    throws(OperationSkip) -> Result
  {
    var result = Result()
    let lower = type.lowercased()
    if Self.isJSON(type) {
      result.example = example
      if let (members, requiredNames) = schemas.objectProperties(schema) {
        for m in members {
          let prop = schemas.resolved(m.value)
          if prop?["readOnly"]?.boolValue == true { continue }
          result.params.append(
            field(m.key, m.value, location: .body, required: required && requiredNames.contains(m.key)))
        }
      }
      let base = lower.split(separator: ";").first.map(String.init) ?? lower
      if base != "application/json" { result.contentType = type }
      return result
    }
    let isForm = lower.hasPrefix("application/x-www-form-urlencoded")
    let isMultipart = lower.hasPrefix("multipart/form-data")
    if isForm || isMultipart {
      let location: ParamLocation = isMultipart ? .multipart : .form
      result.encoding = isMultipart ? .multipart : .form
      if let (members, requiredNames) = schemas.objectProperties(schema) {
        for m in members {
          let prop = schemas.resolved(m.value)
          if prop?["readOnly"]?.boolValue == true { continue }
          var p = field(m.key, m.value, location: location, required: required && requiredNames.contains(m.key))
          if p.type == .file, !isMultipart {
            throw OperationSkip("form field \"\(m.key)\" is a file, which a urlencoded form cannot carry")
          }
          let encoding = encodings.first(where: { $0.key == m.key })?.value
          try applyEncoding(encoding, to: &p)
          if isMultipart {
            // A part's type: the encoding's, else (a file) the schema's; a list or a wildcard names none.
            p.contentType =
              encoding?["contentType"]?.stringValue
              ?? (p.type == .file ? prop?["contentMediaType"]?.stringValue : nil)
            if p.contentType?.contains(",") == true || p.contentType?.contains("*") == true { p.contentType = nil }
          }
          result.params.append(p)
        }
      }
      return result
    }
    // Anything else (octet-stream, text, XML, images...) is a file sent as the whole body.
    result.encoding = .raw
    var p = Param(name: "body", location: .body, type: .file, required: required)
    p.contentType = lower.contains("*") ? (lower.hasPrefix("text/") ? "text/plain" : "application/octet-stream") : type
    p.description = "The request body (\(type)), e.g. body=@file."
    result.params.append(p)
    return result
  }

  /// A form or multipart property's `encoding` `style` and `explode` (how an array or object
  /// is written into fields: Stripe's `deepObject` for `metadata[key]=value`), as written:
  /// without either, apx sends an array as repeated fields and an object as JSON text.
  func applyEncoding(_ encoding: JSONValue?, to p: inout Param) throws(OperationSkip) {
    guard let encoding else { return }
    if let style = encoding["style"]?.stringValue {
      guard let s = ParamStyle(rawValue: style), ParamStyle.allowed(in: p.location).contains(s) else {
        throw OperationSkip("form field \"\(p.name)\" has style \"\(style)\", which apx cannot send in a body")
      }
      p.style = s
    }
    p.explode = encoding["explode"]?.boolValue
  }

  /// One field of an object body.
  func field(_ name: String, _ schema: JSONValue, location: ParamLocation, required: Bool) -> Param {
    let s = schemas.resolved(schema)
    var p = Param(name: name, location: location)
    p.type = schemas.paramType(schema, fileAllowed: location == .multipart)
    p.required = required
    p.allowed = schemas.allowedValues(schema)
    p.description = Text.summary(s?["description"]?.stringValue ?? s?["title"]?.stringValue)
    p.deprecated = s?["deprecated"]?.boolValue ?? false
    // A form's default is what the server assumes for an absent field; a JSON field's stays unsent, as before.
    if location != .body { p.defaultValue = s?["default"] }
    p.constraints = schemas.constraints(schema, type: p.type, field: "\(location.rawValue) field \"\(name)\"")
    return p
  }

  /// Swagger 2.0: one `in: body` parameter and/or `in: formData` parameters.
  func swagger2(bodyParam: JSONValue?, formParams: [JSONValue], consumes: [String]) throws(OperationSkip) -> Result {
    if let bodyParam {
      let schema = bodyParam["schema"]
      let type =
        Self.choose(
          consumes.filter {
            !$0.lowercased().hasPrefix("multipart/") && !$0.lowercased().hasPrefix("application/x-www-form")
          }) ?? "application/json"
      var result = try mapped(
        type: type, schema: schema, required: bodyParam["required"]?.boolValue ?? false, encodings: [],
        example: schema.map { schemas.template($0) }.flatMap { $0 == .null ? nil : $0 })
      result.others = consumes.filter {
        $0 != type && !$0.lowercased().hasPrefix("multipart/") && !$0.lowercased().hasPrefix("application/x-www-form")
      }.map { ($0, schema) }
      return result
    }
    guard !formParams.isEmpty else { return Result() }
    let hasFile = formParams.contains { $0["type"]?.stringValue == "file" }
    let multipart = hasFile || consumes.contains { $0.lowercased().hasPrefix("multipart/form-data") }
    var result = Result()
    result.encoding = multipart ? .multipart : .form
    for f in formParams {
      guard let name = f["name"]?.stringValue else { throw OperationSkip("a formData parameter has no name") }
      var p = field(name, f, location: multipart ? .multipart : .form, required: f["required"]?.boolValue ?? false)
      if f["type"]?.stringValue == "file" { p.type = .file }
      p.defaultValue = f["default"]
      result.params.append(p)
    }
    return result
  }
}

extension Substring {
  var trimmingSpaces: String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
