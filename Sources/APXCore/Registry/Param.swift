/// Where a parameter goes in the request.
public enum ParamLocation: String, Sendable, Hashable, CaseIterable {
  case path, query, header, body, form, multipart
  /// Sent in the `Cookie` header as `name=value`.
  case cookie
  /// A top-level field of a gRPC request message.
  case message
}

/// How an array or object value is written into a path, query, header or
/// cookie (OpenAPI's `style`); `nil` on a `Param` means the location's default.
public enum ParamStyle: String, Sendable, Hashable, CaseIterable {
  /// Query/cookie default: `ids=1&ids=2` (explode) or `ids=1,2`.
  case form
  /// `ids=1%202`.
  case spaceDelimited
  /// `ids=1|2`.
  case pipeDelimited
  /// `filter[status]=open&filter[label]=bug`.
  case deepObject
  /// Path/header default: `1,2`.
  case simple
  /// Path: `.1.2` (explode) or `.1,2`.
  case label
  /// Path: `;ids=1;ids=2` (explode) or `;ids=1,2`.
  case matrix
}

extension ParamStyle {
  /// The styles OpenAPI allows in a location: a form or multipart body property takes a
  /// query's (its `encoding`); a JSON body and a gRPC message take none.
  public static func allowed(in location: ParamLocation) -> [ParamStyle] {
    switch location {
    case .path: [.simple, .label, .matrix]
    case .query, .form, .multipart: [.form, .spaceDelimited, .pipeDelimited, .deepObject]
    case .header: [.simple]
    case .cookie: [.form]
    default: []
    }
  }
}

/// The type a parameter's value must have.
public enum ParamType: String, Sendable, Hashable, CaseIterable {
  case string, integer, number, boolean, file, json, array
}

/// One endpoint parameter.
public struct Param: Sendable, Hashable {
  public var name: String
  public var location: ParamLocation
  public var type: ParamType
  public var required: Bool
  public var defaultValue: JSONValue?
  public var description: String?
  /// Content type of a `file` param's bytes, or of a `multipart` param's part.
  public var contentType: String?
  /// Masked as `***` in verbose output, errors and journals.
  public var secret: Bool
  /// Allowed values, when restricted.
  public var allowed: [JSONValue]?
  /// The name sent on the wire when it differs from `name`.
  public var wireName: String?
  /// How arrays and objects are serialized; nil: the location's default (in a form or
  /// multipart body, with `explode` nil too: arrays repeat the field, objects go as JSON text).
  public var style: ParamStyle?
  /// Whether arrays and objects are exploded; nil: true for `form`, false otherwise.
  public var explode: Bool?
  /// The API marks this parameter deprecated (`describe` says so).
  public var deprecated: Bool
  /// Bounds, length and pattern the value must meet (checked by `apx call` and `apx mock`).
  public var constraints = ValueConstraints()

  public init(
    name: String, location: ParamLocation, type: ParamType = .string, required: Bool = false,
    defaultValue: JSONValue? = nil, description: String? = nil, contentType: String? = nil, secret: Bool = false,
    allowed: [JSONValue]? = nil, wireName: String? = nil, style: ParamStyle? = nil, explode: Bool? = nil,
    deprecated: Bool = false
  ) {
    self.name = name
    self.location = location
    self.type = type
    self.required = required
    self.defaultValue = defaultValue
    self.description = description
    self.contentType = contentType
    self.secret = secret
    self.allowed = allowed
    self.wireName = wireName
    self.style = style
    self.explode = explode
    self.deprecated = deprecated
  }

  /// The style in effect: the declared one, else `simple` for path and header, `form` elsewhere.
  public var effectiveStyle: ParamStyle {
    style ?? ([.path, .header].contains(location) ? .simple : .form)
  }

  /// Whether arrays and objects are exploded: the declared value, else true for `form` only.
  public var effectiveExplode: Bool { explode ?? (effectiveStyle == .form) }

  /// The name sent on the wire.
  public var sentName: String { wireName ?? name }
}
