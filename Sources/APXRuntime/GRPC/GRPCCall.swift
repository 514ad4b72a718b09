import APXCore
import APXProtobuf
import GRPCCore
import Synchronization

/// One call of a `kind: "grpc"` endpoint, with no generated code: the schema
/// comes from the endpoint's source (protoset, .proto, reflection), the
/// request JSON is encoded with APXProtobuf, and grpc-swift's generic client
/// carries the bytes. Every call shape runs as a bidirectional stream under
/// the hood (GRPCCore does the same for its typed calls), so requests are
/// written while responses are read.
///
/// Credentials go in `authorization` metadata; an UNAUTHENTICATED answer
/// with a refreshable auth (OAuth2, token command) refreshes the token once
/// and replays the call, for unary and server-streaming calls that have not
/// printed anything yet. Retries use GRPCCore's `RetryPolicy`.
struct GRPCCall {
  let executor: Executor
  let session: GRPCSession

  func run(_ request: CallRequest, sink: any CallEventSink) async throws -> CallOutcome {
    guard let options = request.endpoint.grpc else {
      throw APXError(
        .invalidDefinition,
        "\(request.api.name).\(request.endpoint.name) is a gRPC endpoint without service and method",
        hint: "add \"service\" and \"method\" in \(request.api.sourceFile)", file: request.api.sourceFile)
    }
    let target = try GRPCTarget(parsing: request.baseURL)
    let timeout = request.timeout ?? request.endpoint.timeout
    let deadline = timeout.map { ContinuousClock.now.advanced(by: GRPCRetry.duration($0)) }
    var mask = SecretMask()
    let (baseFields, ignored) = try GRPCMetadata.fields(request, environment: executor.environment, mask: &mask)
    for name in ignored { try sink.receive(.note("metadata \"\(name)\" is set by gRPC itself; ignored")) }
    let authConfig = AuthApplier.effective(api: request.api, endpoint: request.endpoint)
    var authFields = try await executor.auth.authorization(
      authConfig, mask: &mask, api: request.api, environmentName: request.environmentName, baseURL: request.baseURL)
    let retry = try GRPCRetry.policy(for: request)
    let descriptor = MethodDescriptor(fullyQualifiedService: options.service, method: options.method)
    let reporter = GRPCAttemptReporter(
      url: "\(target)/\(options.service)/\(options.method)", descriptor: descriptor, sink: sink, mask: mask)
    let loader = SchemaLoader(cache: session.schemas, environment: executor.environment)
    let settings = session.settings
    let transport = try GRPCConnection.makeTransport(target, settings: settings)

    return try await withGRPCClient(transport: transport, interceptors: [reporter]) { client in
      var pool: DescriptorPool?
      do {
        let schemaMetadata = try GRPCMetadata.metadata(baseFields + authFields)
        let loaded = try await loader.pool(
          options.schema, service: options.service, registryFile: request.api.sourceFile, target: target,
          reflection: { ReflectionClient(client: client, metadata: schemaMetadata, timeout: Self.remaining(deadline)) })
        pool = loaded
        let method = try loaded.method(service: options.service, method: options.method)
        let messages = try RequestMessages(request: request, method: method, pool: loaded)
        let exchange = Exchange(
          client: client, method: method, descriptor: descriptor, pool: loaded, sink: sink,
          decode: DecodeOptions(emitDefaults: settings.emitDefaults), maxEvents: request.maxEvents)
        var callOptions = CallOptions.defaults
        callOptions.maxRequestMessageBytes = settings.maxMessageSize
        callOptions.maxResponseMessageBytes = settings.maxMessageSize
        if let retry { callOptions.executionPolicy = .retry(retry) }
        do {
          callOptions.timeout = Self.remaining(deadline)
          return try await exchange.run(
            messages, metadata: try GRPCMetadata.metadata(baseFields + authFields), options: callOptions)
        } catch let error as RPCError
          where error.code == .unauthenticated && AuthApplier.isRefreshable(authConfig)
          && executor.auth.tokenOverride == nil && !method.clientStreaming && exchange.messagesReceived == 0
        {
          // The token was refused (expired, revoked): get a new one once and replay the call.
          let rejected = authFields.first { $0.name == "authorization" }.flatMap { Self.bearerToken($0.value) }
          authFields = try await executor.auth.authorization(
            authConfig, mask: &mask, api: request.api, environmentName: request.environmentName,
            baseURL: request.baseURL, rejectedToken: rejected)
          try sink.receive(.note("the server refused the token (UNAUTHENTICATED); signed in again, replaying the call"))
          callOptions.timeout = Self.remaining(deadline)
          return try await exchange.run(
            messages, metadata: try GRPCMetadata.metadata(baseFields + authFields), options: callOptions)
        }
      } catch let error as RPCError {
        throw GRPCFailure(
          target: target, path: "/\(options.service)/\(options.method)", apiName: request.api.name, pool: pool,
          mask: mask, timeout: timeout, endpoint: request.endpoint.name
        ).error(error)
      }
    }
  }

  /// Time left before `deadline`, at least 1 ms (nil without a deadline).
  static func remaining(_ deadline: ContinuousClock.Instant?) -> Duration? {
    guard let deadline else { return nil }
    return max(ContinuousClock.now.duration(to: deadline), .milliseconds(1))
  }

  static func bearerToken(_ value: String) -> String? {
    let parts = value.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return String(parts[1])
  }
}

/// The request side of a call: one message (unary, server streaming) or a
/// stream of them (client and bidirectional streaming), each with the
/// `name=value` fields set.
struct RequestMessages: Sendable {
  enum Body: Sendable {
    case single([UInt8])
    case stream(AsyncThrowingStream<JSONValue, any Error>)
  }

  let body: Body
  let fields: [(path: [String], value: JSONValue)]
  let pool: DescriptorPool
  let input: MessageDescriptor

  init(request: CallRequest, method: MethodInfo, pool: DescriptorPool) throws {
    let builder = GRPCRequestFields(endpoint: request.endpoint, apiName: request.api.name, input: method.input)
    let fields = try builder.fields(request.values)
    self.fields = fields
    self.pool = pool
    self.input = method.input
    if method.clientStreaming {
      body = .stream(try GRPCRequestSource.stream(request.data))
    } else {
      let data = try GRPCRequestSource.single(request.data)
      try builder.checkRequired(fields, data: data)
      let json = try GRPCRequestFields.apply(fields, to: data ?? .object([]))
      body = .single(try pool.encode(json, as: method.input))
    }
  }

  /// Encodes one streamed message, numbering it in errors.
  func encode(_ json: JSONValue, index: Int) throws(APXError) -> [UInt8] {
    do {
      return try pool.encode(try GRPCRequestFields.apply(fields, to: json), as: input)
    } catch {
      var e = error
      e.message = "request message #\(index): " + e.message
      throw e
    }
  }
}

/// Runs one attempt sequence of a call and turns responses into events.
final class Exchange: Sendable {
  let client: GRPCClient<GRPCTransport>
  let method: MethodInfo
  let descriptor: MethodDescriptor
  let pool: DescriptorPool
  let sink: any CallEventSink
  let decode: DecodeOptions
  let maxEvents: Int?
  private let received = Mutex(0)
  private let producerError = Mutex<(any Error)?>(nil)

  init(
    client: GRPCClient<GRPCTransport>, method: MethodInfo, descriptor: MethodDescriptor, pool: DescriptorPool,
    sink: any CallEventSink, decode: DecodeOptions, maxEvents: Int?
  ) {
    self.client = client
    self.method = method
    self.descriptor = descriptor
    self.pool = pool
    self.sink = sink
    self.decode = decode
    self.maxEvents = maxEvents
  }

  /// Response messages delivered so far.
  var messagesReceived: Int { received.withLock { $0 } }

  func run(_ messages: RequestMessages, metadata: Metadata, options: CallOptions) async throws -> CallOutcome {
    let request = StreamingClientRequest<[UInt8]>(metadata: metadata) { [self] writer in
      do {
        switch messages.body {
        case .single(let bytes):
          try await writer.write(bytes)
        case .stream(let source):
          var index = 0
          for try await json in source {
            index += 1
            try await writer.write(try messages.encode(json, index: index))
          }
        }
      } catch {
        // Keep the reason: GRPCCore reports a failed request stream as a cancelled call.
        self.producerError.withLock { $0 = error }
        throw error
      }
    }
    do {
      return try await client.bidirectionalStreaming(
        request: request, descriptor: descriptor, serializer: RawBytesSerializer(),
        deserializer: RawBytesDeserializer(), options: options
      ) { response in try await self.handle(response) }
    } catch {
      if let reason = producerError.withLock({ $0 }) { throw reason }
      throw error
    }
  }

  private func handle(_ response: StreamingClientResponse<[UInt8]>) async throws -> CallOutcome {
    let contents = try response.accepted.get()
    try sink.receive(.responseHead(status: 200, version: "HTTP/2", headers: GRPCMetadata.fields(contents.metadata)))
    var trailers: [HeaderField] = []
    var count = 0
    for try await part in contents.bodyParts {
      switch part {
      case .message(let bytes):
        let json = try pool.decode(bytes, as: method.output, options: decode)
        count += 1
        received.withLock { $0 = count }
        try sink.receive(.message(json))
        if let maxEvents, count >= maxEvents {
          return CallOutcome(status: 200, headers: GRPCMetadata.fields(contents.metadata))
        }
      case .trailingMetadata(let metadata):
        trailers = GRPCMetadata.fields(metadata)
        try sink.receive(.trailers(trailers))
      }
    }
    return CallOutcome(status: 200, headers: trailers)
  }
}
