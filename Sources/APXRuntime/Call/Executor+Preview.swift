import APXCore
import APXProtobuf

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Executor {
  /// What `call(_:sink:)` (or, for several requests, `call(batch:sink:)`) would send, built by
  /// the same code as its first attempt: the transports' `resolve` for HTTP kinds, the gRPC
  /// transport's metadata and message builders for gRPC. Nothing is sent: make the executor
  /// with a `StoredTokenSource` so no token is fetched either, and a gRPC schema from server
  /// reflection is not asked for (the message is then built from the names as written).
  public func preview(_ requests: [CallRequest]) async throws -> RequestPreview {
    guard let request = requests.first else { throw APXError(.usage, "a batch needs at least one call") }
    let credentials = Credentials(applier: auth, request: request)
    switch request.endpoint.kind {
    case .rest:
      let key = request.endpoint.idempotencyKey ? UUID().uuidString.lowercased() : nil
      let attempt = try await HTTPAttempt.resolve(
        request, environment: environment, credentials: credentials, idempotencyKey: key)
      return .http(HTTPRequestPreview(kind: .rest, plan: attempt.plan, mask: attempt.mask))
    case .sse:
      var attempt = try await HTTPAttempt.resolve(request, environment: environment, credentials: credentials)
      SSEConnection.prepareStreamHeaders(&attempt.plan, userHeaders: request.headers)
      return .http(HTTPRequestPreview(kind: .sse, plan: attempt.plan, mask: attempt.mask))
    case .jsonrpc:
      let transport = JSONRPCCall(
        session: session, environment: environment, timeout: nil, batch: requests.count > 1 ? requests : [])
      let attempt = try await transport.resolve(request, credentials: credentials)
      return .http(HTTPRequestPreview(kind: .jsonrpc, plan: attempt.http.plan, mask: attempt.http.mask))
    case .grpc:
      return .grpc(try await grpcPreview(request, credentials: credentials))
    }
  }

  /// The gRPC call `request` makes: `GRPCCall.resolve` without a connection.
  func grpcPreview(_ request: CallRequest, credentials: Credentials) async throws -> GRPCRequestPreview {
    let options = try GRPCCall.options(of: request)
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
      let loader = SchemaLoader(cache: grpc?.schemas ?? SchemaCache(), environment: environment)
      let loaded = try await loader.pool(
        options.schema, service: options.service, registryFile: request.api.sourceFile, target: target,
        reflection: nil)
      input = try loaded.method(service: options.service, method: options.method)
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
      case .single(let json): _ = try pool.encode(json, as: input.input)
      case .stream(let list): for json in list { _ = try pool.encode(json, as: input.input) }
      case .stdin: break
      }
    }
    return GRPCRequestPreview(
      target: target, service: options.service, method: options.method, metadata: metadata,
      ignoredMetadata: ignored, messages: messages, schema: schema, checked: input != nil, mask: mask)
  }

  private func apply(_ fields: [(path: [String], value: JSONValue)], _ message: JSONValue) throws(APXError)
    -> JSONValue
  {
    try GRPCRequestFields.apply(fields, to: message)
  }
}
