/// One registry file: an API with its environments, defaults and endpoints.
///
/// Registry files are JSON (`Endpoints/<api>.json`); `RegistryLoader` turns
/// their bytes into this value, reporting every problem with file:line:column.
public struct APIDefinition: Sendable {
  /// The API's name, the part before the first dot in `apx call API.ENDPOINT`.
  public var name: String
  public var title: String?
  /// The file's `description`, for people reading it (and kept by `RegistryWriter`).
  public var description: String?
  /// The file's `$schema` reference, e.g. `./registry.schema.json`.
  public var schemaReference: String?
  /// Environments in file order.
  public var environments: [NamedEnvironment]
  public var defaultEnvironment: String?
  /// Headers sent with every REST/SSE call (metadata for gRPC), in file order.
  public var headers: [HeaderField]
  public var auth: AuthConfig?
  public var retry: RetryConfig?
  /// The file's `tls` block (paths as written; see `tlsFiles(environment:)`).
  public var tls: TLSFiles?
  /// JSON Schemas that endpoints' `responses` refer to as `{"$ref": "#/schemas/NAME"}`, by name.
  public var schemas: [JSONMember] = []
  /// Endpoints in file order; after `RegistryLoader.load(_:file:endpoint:)` only those the call needs.
  public var endpoints: [Endpoint]
  /// Set by a partial load (`RegistryLoader.load(_:file:endpoint:)`): every endpoint name in the file.
  public var partialLoadNames: [String]?

  /// The name of every endpoint the file defines, in file order, including any a partial load left undecoded.
  public var endpointNames: [String] { partialLoadNames ?? endpoints.map(\.name) }
  /// The file this definition came from, for messages and relative paths.
  public var sourceFile: String

  public init(
    name: String, title: String? = nil, environments: [NamedEnvironment] = [], defaultEnvironment: String? = nil,
    headers: [HeaderField] = [], auth: AuthConfig? = nil, retry: RetryConfig? = nil, endpoints: [Endpoint] = [],
    sourceFile: String
  ) {
    self.name = name
    self.title = title
    self.environments = environments
    self.defaultEnvironment = defaultEnvironment
    self.headers = headers
    self.auth = auth
    self.retry = retry
    self.endpoints = endpoints
    self.sourceFile = sourceFile
  }

  /// The endpoint with this name (the part after `API.`).
  public func endpoint(named name: String) -> Endpoint? {
    endpoints.first { $0.name == name }
  }

  /// The environment with this name.
  public func environment(named name: String) -> NamedEnvironment? {
    environments.first { $0.name == name }
  }
}

/// A named target for an API: where its server lives.
public struct NamedEnvironment: Sendable, Hashable {
  public var name: String
  /// `http(s)://host:port[/prefix]` for REST/SSE, `grpc(s)://host:port` for gRPC.
  public var baseURL: String
  public var description: String?
  /// The environment's own `tls` block, overriding the file's key by key.
  public var tls: TLSFiles?

  public init(name: String, baseURL: String, description: String? = nil, tls: TLSFiles? = nil) {
    self.name = name
    self.baseURL = baseURL
    self.description = description
    self.tls = tls
  }
}

/// A header name and value; values may hold `${...}` templates.
public struct HeaderField: Sendable, Hashable {
  public var name: String
  public var value: String

  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}
