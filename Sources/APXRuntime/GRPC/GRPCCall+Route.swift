import APXCore
import APXProtobuf

/// `kind: "grpc"`: one `GRPCCall` through the pipeline on the run's `GRPCSession`, with
/// GRPCCore's own retries off and the endpoint's retryable codes in the policy.
extension GRPCCall: CallRoute {
  static func call(_ request: CallRequest, executor: Executor, attempts: AttemptCounter, sink: any CallEventSink)
    async throws -> CallOutcome
  {
    // Schema loading, the four call shapes, metadata and TLS: see GRPCCall.
    guard let grpc = executor.grpc else {
      throw APXError(
        .internalFailure, "a gRPC call was made without a gRPC session",
        hint: "this is a bug in apx: the command must open one with GRPCSession.with")
    }
    var policy = try executor.retryPolicy(request)
    policy.retryOnGRPCCodes = try GRPCRetry.codes(for: request)
    return try await executor.perform(
      GRPCCall(session: grpc, environment: executor.environment), request, policy: policy, attempts: attempts,
      sink: sink)
  }

  static func preview(_ requests: [CallRequest], executor: Executor, credentials: Credentials) async throws
    -> RequestPreview
  {
    .grpc(try await grpcPreview(requests[0], executor: executor, credentials: credentials))
  }

  /// The gRPC call `request` makes: `resolve` without a connection. A schema from server
  /// reflection is not asked for (the message is then built from the names as written).
  static func grpcPreview(_ request: CallRequest, executor: Executor, credentials: Credentials) async throws
    -> GRPCRequestPreview
  {
    let environment = executor.environment
    let options = try Self.options(of: request)
    let target = try GRPCTarget(parsing: request.baseURL)
    var mask = SecretMask()
    let (baseFields, ignored) = try GRPCMetadata.fields(request, environment: environment, mask: &mask)
    let metadata = baseFields + (try await credentials.metadata(mask: &mask))
    let base = SchemaPaths.folder(of: request.api.sourceFile)
    let schema: SchemaSource
    var input: MethodInfo?
    var pool: DescriptorPool?
    switch options.schema {
    case .reflection:
      schema = .reflection
    case .protoset(let path):
      schema = .protoset(path: SchemaPaths.resolve(path, against: base))
    case .protoFiles(let files, let imports):
      schema = .protoFiles(
        files: files.map { SchemaPaths.resolve($0, against: base) },
        importPaths: imports.map { SchemaPaths.resolve($0, against: base) })
    }
    if schema != .reflection {
      let loader = SchemaLoader(cache: executor.grpc?.schemas ?? SchemaCache(), environment: environment)
      let loaded = try await loader.pool(
        options.schema, service: options.service, origin: .of(request), target: target,
        reflection: nil)
      input = try protobuf { () throws(ProtobufError) in
        try loaded.method(service: options.service, method: options.method)
      }
      pool = loaded
    }
    let builder = GRPCRequestFields(endpoint: request.endpoint, apiName: request.api.name, input: input?.input)
    let fields = try builder.fields(request.values)
    // Without a schema a JSON array can only mean a client stream.
    let streaming: Bool
    if let input {
      streaming = input.clientStreaming
    } else if case .json(let bytes) = request.data, case .array = try? JSONParser.parse(bytes) {
      streaming = true
    } else {
      streaming = false
    }
    let messages: GRPCRequestPreview.Messages
    if streaming {
      switch request.data {
      case .json(let bytes):
        messages = .stream(try GRPCRequestSource.documents(in: bytes, origin: "-d").map { try apply(fields, $0) })
      case .file(let path):
        messages = .stream(
          try GRPCRequestSource.documents(in: try FileBytes.read(path), origin: path).map { try apply(fields, $0) })
      case .stdin, nil:
        messages = .stdin(fields: try GRPCRequestFields.apply(fields, to: .object([])))
      }
    } else {
      let data = try GRPCRequestSource.single(request.data)
      if input != nil { try builder.checkRequired(fields, data: data) }
      messages = .single(try apply(fields, data ?? .object([])))
    }
    // Encoding checks every field against the schema, as the real call would.
    if let input, let pool {
      switch messages {
      case .single(let json): _ = try protobuf { () throws(ProtobufError) in try pool.encode(json, as: input.input) }
      case .stream(let list):
        for json in list { _ = try protobuf { () throws(ProtobufError) in try pool.encode(json, as: input.input) } }
      case .stdin: break
      }
    }
    return GRPCRequestPreview(
      target: target, service: options.service, method: options.method, metadata: metadata,
      ignoredMetadata: ignored, messages: messages, schema: schema, checked: input != nil, mask: mask)
  }

  private static func apply(_ fields: [(path: [String], value: JSONValue)], _ message: JSONValue) throws(APXError)
    -> JSONValue
  {
    try GRPCRequestFields.apply(fields, to: message)
  }
}
