public import APXCore
import APXProtobuf
import GRPCCore

/// One gRPC method as `apx list` and `apx describe` show it.
public struct GRPCMethodSummary: Sendable {
  /// Fully qualified service name.
  public var service: String
  public var method: String
  /// `unary`, `server_streaming`, `client_streaming` or `bidi_streaming`.
  public var shape: String
  /// Fully qualified request and response message types.
  public var requestType: String
  public var responseType: String
  /// A request JSON showing every field with a placeholder of its type.
  public var requestTemplate: JSONValue
  /// The request message's fields as declared (`repeated string tags = 3`), in declaration order.
  public var requestFields: [String]
  /// The response message's fields as declared.
  public var responseFields: [String]

  init(_ info: MethodInfo, pool: DescriptorPool) {
    service = info.service
    method = info.name
    shape = Self.shape(clientStreaming: info.clientStreaming, serverStreaming: info.serverStreaming)
    requestType = info.input.fullName
    responseType = info.output.fullName
    requestTemplate = pool.template(for: info.input)
    requestFields = info.input.fields.map(\.description)
    responseFields = info.output.fields.map(\.description)
  }

  /// The call shape's name.
  public static func shape(clientStreaming: Bool, serverStreaming: Bool) -> String {
    switch (clientStreaming, serverStreaming) {
    case (false, false): "unary"
    case (false, true): "server_streaming"
    case (true, false): "client_streaming"
    case (true, true): "bidi_streaming"
    }
  }
}

/// Schema questions without a call: the shape and request template of a
/// registry endpoint (`apx describe`), and every service and method a server
/// offers over reflection (`apx list --grpc HOST:PORT`).
public enum GRPCInspector {
  /// The method behind a gRPC endpoint. A protoset or .proto schema is read
  /// locally; a reflection schema asks the server at `baseURL` over the
  /// session's client (and the session's cache keeps what it answered).
  ///
  /// - Parameter origin: where the schema's files were named; nil: `api`'s registry file.
  public static func describe(
    api: APIDefinition, endpoint: Endpoint, baseURL: String, environment: [String: String], session: GRPCSession,
    headers: [HeaderField] = [], timeout: Double = 10, origin: SchemaOrigin? = nil
  ) async throws -> GRPCMethodSummary {
    let settings = session.settings
    guard let options = endpoint.grpc else {
      throw APXError(.usage, "\(api.name).\(endpoint.name) is not a gRPC endpoint")
    }
    let target = try GRPCTarget(parsing: baseURL)
    let loader = SchemaLoader(cache: session.schemas, environment: environment)
    let metadata = try GRPCMetadata.metadata(headers.map { HeaderField($0.name.lowercased(), $0.value) })
    do {
      let pool: DescriptorPool
      if case .reflection = options.schema {
        let client = try await session.client(for: target, timeout: timeout)
        pool = try await loader.pool(
          options.schema, service: options.service, origin: origin ?? .registryFile(api.sourceFile), target: target,
          reflection: {
            ReflectionClient(
              client: client, target: target, metadata: metadata, timeout: GRPCRetry.duration(timeout))
          })
      } else {
        pool = try await loader.pool(
          options.schema, service: options.service, origin: origin ?? .registryFile(api.sourceFile), target: target,
          reflection: nil)
      }
      return GRPCMethodSummary(
        try protobuf { () throws(ProtobufError) in try pool.method(service: options.service, method: options.method) },
        pool: pool)
    } catch let error as RPCError {
      throw reflectionFailure(error, target: target, settings: settings)
    }
  }

  /// Every method of every service `address` offers over reflection, sorted by service.
  public static func listServices(
    at address: String, settings: GRPCSettings = GRPCSettings(), headers: [HeaderField] = [], timeout: Double = 10
  ) async throws -> [GRPCMethodSummary] {
    let target = try GRPCTarget(parsing: address)
    let metadata = try GRPCMetadata.metadata(headers.map { HeaderField($0.name.lowercased(), $0.value) })
    do {
      return try await GRPCSession.with(settings) { session in
        let reflection = ReflectionClient(
          client: try await session.client(for: target, timeout: timeout), target: target,
          metadata: metadata, timeout: GRPCRetry.duration(timeout))
        var out: [GRPCMethodSummary] = []
        for service in try await reflection.listServices() {
          let files = try await reflection.files(containing: service)
          let pool = try ReflectionClient.pool(of: service, from: files, target: target)
          out += try protobuf { () throws(ProtobufError) in try summaries(of: service, in: pool) }
        }
        return out
      }
    } catch let error as RPCError {
      throw reflectionFailure(error, target: target, settings: settings)
    }
  }

  /// Every method of every service in a protoset or .proto files (read locally;
  /// relative paths start at `origin`'s folder), sorted by service.
  public static func listMethods(
    schema: SchemaSource, origin: SchemaOrigin, environment: [String: String]
  ) async throws -> [GRPCMethodSummary] {
    let loader = SchemaLoader(cache: SchemaCache(), environment: environment)
    // The target only keys reflection schemas in the cache; file schemas never connect.
    let pool = try await loader.pool(
      schema, service: "", origin: origin, target: try GRPCTarget(parsing: "grpc://127.0.0.1:1"),
      reflection: nil)
    return try protobuf { () throws(ProtobufError) in
      var out: [GRPCMethodSummary] = []
      for service in pool.services { out += try summaries(of: service, in: pool) }
      return out
    }
  }

  /// The serialized `FileDescriptorSet` that declares `services`, as a server serving them
  /// needs it (`apx mock`): read from a protoset, compiled from .proto files (relative paths
  /// start at `origin`'s folder), or gathered over reflection from `address`.
  public static func descriptorSet(
    schema: SchemaSource, services: [String], origin: SchemaOrigin, address: String?,
    settings: GRPCSettings = GRPCSettings(), environment: [String: String], timeout: Double = 10
  ) async throws -> [UInt8] {
    let loader = SchemaLoader(cache: SchemaCache(), environment: environment)
    guard case .reflection = schema else { return try await loader.descriptorSet(schema, origin: origin) }
    guard let address else {
      throw APXError(
        .usage,
        "the schema of \(services.joined(separator: ", ")) comes from server reflection, and no server is named",
        hint: "name the server to read it from, or give the API a protoset")
    }
    let target = try GRPCTarget(parsing: address)
    do {
      return try await GRPCSession.with(settings) { session in
        let reflection = ReflectionClient(
          client: try await session.client(for: target, timeout: timeout), target: target, metadata: [:],
          timeout: GRPCRetry.duration(timeout))
        return try await descriptorSet(of: services, from: reflection)
      }
    } catch let error as RPCError {
      throw reflectionFailure(error, target: target, settings: settings)
    }
  }

  /// The serialized `FileDescriptorSet` of the files that declare `services`, each file once,
  /// read over `reflection`.
  static func descriptorSet(of services: [String], from reflection: ReflectionClient) async throws -> [UInt8] {
    var seen: Set<[UInt8]> = []
    var set: [UInt8] = []
    for service in services {
      for file in try await reflection.files(containing: service) where seen.insert(file).inserted {
        // FileDescriptorSet.file (field 1, length-delimited), once per file.
        set.append(0x0A)
        var length = UInt64(file.count)
        while length >= 0x80 {
          set.append(UInt8(length & 0x7F) | 0x80)
          length >>= 7
        }
        set.append(UInt8(length))
        set += file
      }
    }
    return set
  }

  /// Every method of `service`, in declaration order.
  private static func summaries(of service: String, in pool: DescriptorPool) throws(ProtobufError)
    -> [GRPCMethodSummary]
  {
    var out: [GRPCMethodSummary] = []
    for name in try pool.methods(of: service) {
      out.append(GRPCMethodSummary(try pool.method(service: service, method: name), pool: pool))
    }
    return out
  }

  static func reflectionFailure(_ error: RPCError, target: GRPCTarget, settings: GRPCSettings) -> APXError {
    var e = GRPCFailure(
      target: target, path: "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", apiName: "API", pool: nil,
      mask: SecretMask(), timeout: nil
    ).error(error)
    e.message = "cannot read the schema of \(target) over reflection: " + e.message
    return e
  }
}
