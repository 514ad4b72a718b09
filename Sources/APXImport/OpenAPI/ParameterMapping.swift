import APXCore

/// Maps OpenAPI/Swagger parameter objects to registry `Param`s.
struct ParameterMapping {
  let schemas: SchemaReader
  let swagger2: Bool

  /// Header parameters OpenAPI says to ignore (the request's own headers).
  static let ignoredHeaders: Set<String> = ["accept", "content-type", "authorization"]

  /// One path/query/header/cookie parameter; nil for what a registry does not need
  /// (ignored headers). Swagger 2.0 `body`/`formData` are handled by `BodyMapping`.
  func param(_ p: JSONValue, location: String) throws(OperationSkip) -> Param? {
    guard let name = p["name"]?.stringValue, !name.isEmpty else {
      throw OperationSkip("a \(location) parameter has no name")
    }
    let loc: ParamLocation
    switch location {
    case "path": loc = .path
    case "query": loc = .query
    case "header":
      if Self.ignoredHeaders.contains(name.lowercased()) { return nil }
      loc = .header
    case "cookie": loc = .cookie
    default: throw OperationSkip("parameter \"\(name)\" is in \"\(location)\", which OpenAPI does not define")
    }
    // Swagger 2.0 describes the type on the parameter itself; 3.x in `schema`
    // (or `content`, a serialized value, sent as text).
    let schema: JSONValue? = swagger2 ? p : (p["schema"] ?? p["content"]?.objectMembers?.first?.value["schema"])
    var param = Param(name: name, location: loc)
    param.type = p["content"] != nil ? .string : schemas.paramType(schema, fileAllowed: false)
    param.required = loc == .path ? true : (p["required"]?.boolValue ?? false)
    let resolvedSchema = schemas.resolved(schema)
    param.defaultValue = swagger2 ? p["default"] : resolvedSchema?["default"]
    param.allowed = schemas.allowedValues(schema)
    param.description = Text.summary(p["description"]?.stringValue ?? resolvedSchema?["description"]?.stringValue)
    param.deprecated = p["deprecated"]?.boolValue ?? false
    param.constraints = schemas.constraints(schema, type: param.type, field: "\(location) parameter \"\(name)\"")
    if swagger2 {
      try applyCollectionFormat(p["collectionFormat"]?.stringValue, to: &param)
    } else {
      if let style = p["style"]?.stringValue {
        guard let s = ParamStyle(rawValue: style) else {
          throw OperationSkip("parameter \"\(name)\" has style \"\(style)\", which apx cannot send")
        }
        param.style = s
      }
      param.explode = p["explode"]?.boolValue
      // Leave the defaults implicit: they are what the registry assumes too.
      if param.style == param.effectiveStyleDefault { param.style = nil }
      if let e = param.explode, e == (param.effectiveStyle == .form) { param.explode = nil }
    }
    if let style = param.style, !ParamStyle.allowed(in: loc).contains(style) {
      throw OperationSkip(
        "parameter \"\(name)\" has style \"\(style.rawValue)\", which OpenAPI does not allow \(location)")
    }
    return param
  }

  /// Swagger 2.0 `collectionFormat` as OpenAPI 3 style/explode.
  func applyCollectionFormat(_ format: String?, to param: inout Param) throws(OperationSkip) {
    guard param.type == .array else { return }
    let simple = param.location == .path || param.location == .header
    switch format ?? "csv" {
    case "multi": param.explode = simple ? nil : true
    case "ssv": param.style = simple ? nil : .spaceDelimited
    case "pipes": param.style = simple ? nil : .pipeDelimited
    case "csv":
      // Comma-separated: form style needs explode false.
      if !simple { param.explode = false }
    default:
      // tsv has no OpenAPI 3 style; sending commas instead would not be what the document says.
      throw OperationSkip(
        "parameter \"\(param.name)\" has collectionFormat \"\(format ?? "")\", which apx cannot send")
    }
  }
}

extension Param {
  /// The style a location uses when none is given.
  var effectiveStyleDefault: ParamStyle { [.path, .header].contains(location) ? .simple : .form }
}

/// Short texts for registry descriptions.
enum Text {
  /// The first paragraph of `text` (HTML as plain text), whitespace-collapsed, at most 300
  /// characters.
  static func summary(_ text: String?) -> String? {
    guard let text = text.map(HTMLText.plain) else { return nil }
    let paragraph = text.split(separator: "\n\n", maxSplits: 1).first.map(String.init) ?? text
    let words = paragraph.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
    var out = words.joined(separator: " ")
    if out.isEmpty { return nil }
    if out.count > 300 { out = String(out.prefix(297)) + "..." }
    return out
  }
}
