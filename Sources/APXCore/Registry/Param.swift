/// Where a parameter goes in the request.
public enum ParamLocation: String, Sendable, Hashable, CaseIterable {
  case path, query, header, body, form, multipart
  /// A top-level field of a gRPC request message.
  case message
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
  /// Content type of a `file` param's bytes.
  public var contentType: String?
  /// Masked as `***` in verbose output, errors and journals.
  public var secret: Bool
  /// Allowed values, when restricted.
  public var allowed: [JSONValue]?
  /// The name sent on the wire when it differs from `name`.
  public var wireName: String?

  public init(
    name: String, location: ParamLocation, type: ParamType = .string, required: Bool = false,
    defaultValue: JSONValue? = nil, description: String? = nil, contentType: String? = nil, secret: Bool = false,
    allowed: [JSONValue]? = nil, wireName: String? = nil
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
  }

  /// The name sent on the wire.
  public var sentName: String { wireName ?? name }
}
