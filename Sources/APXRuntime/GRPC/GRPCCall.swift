import APXCore
import APXProtobuf
import GRPCCore
import NIOCore
import Synchronization

/// The gRPC transport: one attempt of a `kind: "grpc"` endpoint, with no
/// generated code: the schema comes from the endpoint's source (protoset,
/// .proto, reflection), the request JSON is encoded with APXProtobuf, and
/// grpc-swift's generic client (the run's, from `GRPCSession`) carries the
/// bytes. Every call shape runs as a bidirectional stream under the hood
/// (GRPCCore does the same for its typed calls), so requests are written
/// while responses are read.
///
/// Credentials go in `authorization` metadata. A failed attempt is reported
/// with its status code, or as a connection failure when no connection could
/// be made; UNAUTHENTICATED before any response marks the credentials as
/// refused. Retries and refreshes are the `Executor`'s, never GRPCCore's.
struct GRPCCall: Transport {
  let session: GRPCSession
  let environment: [String: String]

  /// One attempt, ready to send.
  struct Attempt: Sendable {
    let client: GRPCClient<GRPCTransport>
    let method: MethodInfo
    /// The registry declares the endpoint idempotent.
    let idempotent: Bool
    let descriptor: MethodDescriptor
    let pool: DescriptorPool
    let messages: RequestMessages
    let fields: [HeaderField]
    /// Metadata names gRPC sets itself, which the call leaves out.
    let ignored: [String]
    let mask: SecretMask
    let url: String
    let failure: GRPCFailure
    let maxEvents: Int?
    /// The endpoint's `progress` paths, read from each response message.
    let progress: StreamProgressReader?
  }

  func resolve(_ request: CallRequest, credentials: Credentials) async throws -> Attempt {
    let options = try Self.options(of: request)
    let progress = try options.progress.map { fields throws(APXError) in
      try StreamProgressReader(fields, endpoint: "\(request.api.name).\(request.endpoint.name)")
    }
    let target = try GRPCTarget(parsing: request.baseURL)
    let timeout = request.timeout ?? request.endpoint.timeout
    var mask = SecretMask()
    mask.addCredentialValues(of: request.headers)
    let (baseFields, ignored) = try GRPCMetadata.fields(request, environment: environment, mask: &mask)
    let fields = baseFields + (try await credentials.metadata(mask: &mask))
    let path = "/\(options.service)/\(options.method)"
    // An ad-hoc call's API name is the URL's host: only its URL names it to `apx describe`.
    let described = request.targetIsURL ? "\(target)\(path)" : "\(request.api.name).\(request.endpoint.name)"
    // Reflection runs on the client for single requests; a protoset or .proto needs none
    // before the call's shape is known.
    let reflectionClient =
      options.schema == .reflection ? try await session.client(for: target, timeout: timeout) : nil
    let loader = SchemaLoader(cache: session.schemas, environment: environment)
    let pool: DescriptorPool
    do {
      let schemaMetadata = try GRPCMetadata.metadata(fields)
      pool = try await loader.pool(
        options.schema, service: options.service, origin: .of(request), target: target,
        reflection: reflectionClient.map { client in
          {
            ReflectionClient(
              client: client, target: target, metadata: schemaMetadata, timeout: timeout.map(GRPCRetry.duration))
          }
        })
    } catch let error as RPCError {
      if GRPCFailure.couldNotConnect(error), let failure = session.proxyFailure(for: target) { throw failure }
      throw GRPCFailure(
        target: target, path: path, apiName: request.api.name, pool: nil, mask: mask, timeout: timeout,
        described: described
      ).error(error)
    }
    let method = try protobuf { () throws(ProtobufError) in
      try pool.method(service: options.service, method: options.method)
    }
    let client = try await session.client(for: target, timeout: timeout)
    return Attempt(
      client: client, method: method, idempotent: request.endpoint.idempotent,
      descriptor: MethodDescriptor(fullyQualifiedService: options.service, method: options.method), pool: pool,
      messages: try RequestMessages(
        request: request, method: method, pool: pool,
        maxMessageSize: session.settings.maxMessageSize ?? GRPCSettings.defaultMaxMessageSize),
      fields: fields, ignored: ignored,
      mask: mask, url: "\(target)\(path)",
      failure: GRPCFailure(
        target: target, path: path, apiName: request.api.name, pool: pool, mask: mask, timeout: timeout,
        described: described),
      maxEvents: request.maxEvents, progress: progress)
  }

  /// The endpoint's service, method and schema; a definition error when it has none.
  static func options(of request: CallRequest) throws(APXError) -> GRPCOptions {
    guard let options = request.endpoint.grpc else {
      throw APXError(
        .invalidDefinition,
        "\(request.api.name).\(request.endpoint.name) is a gRPC endpoint without service and method",
        hint: "add \"service\" and \"method\" in \(request.api.sourceFile)", file: request.api.sourceFile)
    }
    return options
  }

  /// A unary or server-streaming request is a message in memory; a client
  /// stream is read as it is sent and cannot be sent twice. A call the server may
  /// already have run is repeated only when running it twice is harmless: the schema says so
  /// (`idempotency_level`) or the registry does (`"idempotent": true`).
  func retrySafety(of attempt: Attempt) -> AttemptSafety {
    if case .stream = attempt.messages.body {
      return .notReplayable("a client stream is sent as it is read and cannot be sent twice")
    }
    return attempt.method.idempotent || attempt.idempotent ? .safe : .notIdempotent
  }

  func presentedToken(in attempt: Attempt) -> String? {
    attempt.fields.first { $0.name == "authorization" }.flatMap { Self.bearerToken($0.value) }
  }

  func send(_ attempt: Attempt, context: AttemptContext, sink: any CallEventSink) async throws -> CallOutcome {
    if context.number == 1 {
      for name in attempt.ignored { try sink.receive(.note("metadata \"\(name)\" is set by gRPC itself; ignored")) }
    }
    if let proxy = session.proxy(for: attempt.failure.target) {
      try sink.receive(.proxy(attempt.mask.mask(proxy.display)))
    }
    try sink.receive(
      .requestSent(
        method: "POST", url: attempt.url, headers: attempt.mask.mask(attempt.fields), attempt: context.number))
    try sink.receive(.secrets(attempt.mask))
    var options = CallOptions.defaults
    let limit = session.settings.maxMessageSize ?? GRPCSettings.defaultMaxMessageSize
    // The transport's deframer takes its limit from maxRequestMessageBytes (grpc-swift-nio-
    // transport 2), and fails a larger answer as INTERNAL "Failed to decode message", saying
    // nothing of its size: it holds up to 4 times the limit, and the deserializer refuses what
    // is over the limit as RESOURCE_EXHAUSTED, naming both sizes (exit 72). Requests are held to
    // the limit by `RequestMessages.checkSize` before they are sent.
    let transportLimit = Int(min(Int64(limit) * 4, Int64(Int32.max)))
    options.maxRequestMessageBytes = transportLimit
    options.maxResponseMessageBytes = transportLimit
    options.timeout = Self.remaining(context.deadline)
    let exchange = Exchange(
      method: attempt.method, descriptor: attempt.descriptor, pool: attempt.pool, sink: sink,
      decode: DecodeOptions(emitDefaults: session.settings.emitDefaults), maxEvents: attempt.maxEvents,
      progress: attempt.progress, maxMessageSize: limit)
    do {
      let metadata = try GRPCMetadata.metadata(attempt.fields)
      return try await exchange.run(attempt.messages, client: attempt.client, metadata: metadata, options: options)
    } catch let error as RPCError {
      // Once a message is printed, a repeat would print it twice.
      let untouched = exchange.messagesReceived == 0
      if GRPCFailure.couldNotConnect(error), let proxyFailure = session.proxyFailure(for: attempt.failure.target) {
        throw AttemptFailure(proxyFailure, outcome: proxyFailure.status == .network ? .connectionFailure : nil)
      }
      // An answer over the limit is as large the next time: never worth a retry.
      let outcome = untouched && !exchange.answerTooLarge ? GRPCFailure.retryOutcome(of: error) : nil
      var failure = AttemptFailure(
        attempt.failure.error(error), outcome: outcome,
        credentialsRejected: untouched && error.code == .unauthenticated)
      failure.undelivered = !exchange.requestStarted || GRPCFailure.couldNotConnect(error)
      throw failure
    }
  }

  /// Time left before `deadline` as a gRPC timeout, at least 1 ms (nil without a deadline).
  static func remaining(_ deadline: NIODeadline) -> Duration? {
    guard deadline != .distantFuture else { return nil }
    let left = deadline.uptimeNanoseconds.subtractingReportingOverflow(NIODeadline.now().uptimeNanoseconds)
    guard !left.overflow, left.partialValue > 1_000_000 else { return .milliseconds(1) }
    return .nanoseconds(Int64(clamping: left.partialValue))
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
  /// `--max-message-size`: grpc-swift sends a larger request anyway, and the server's reset
  /// read as UNAVAILABLE, retried with "try again later".
  let maxMessageSize: Int

  init(request: CallRequest, method: MethodInfo, pool: DescriptorPool, maxMessageSize: Int) throws {
    self.maxMessageSize = maxMessageSize
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
      let bytes = try protobuf { () throws(ProtobufError) in try pool.encode(json, as: method.input) }
      try Self.checkSize(bytes, limit: maxMessageSize, what: "the request message")
      body = .single(bytes)
    }
  }

  /// A request message larger than the limit is a usage error, found before it is sent.
  static func checkSize(_ bytes: [UInt8], limit: Int, what: String) throws(APXError) {
    guard bytes.count > limit else { return }
    throw APXError(
      .usage, "\(what) is \(bytes.count) bytes encoded, more than --max-message-size (\(limit) bytes)",
      hint: "raise --max-message-size BYTES if the server accepts larger messages (gRPC servers take 4 MiB by "
        + "default), or send less")
  }

  /// Encodes one streamed message, numbering it in errors.
  func encode(_ json: JSONValue, index: Int) throws(APXError) -> [UInt8] {
    do {
      let message = try GRPCRequestFields.apply(fields, to: json)
      let bytes = try protobuf { () throws(ProtobufError) in try pool.encode(message, as: input) }
      try Self.checkSize(bytes, limit: maxMessageSize, what: "the message")
      return bytes
    } catch {
      var e = error
      e.message = "request message #\(index): " + e.message
      throw e
    }
  }
}

/// Runs one attempt sequence of a call and turns responses into events.
final class Exchange: Sendable {
  let method: MethodInfo
  let descriptor: MethodDescriptor
  let pool: DescriptorPool
  let sink: any CallEventSink
  let decode: DecodeOptions
  let maxEvents: Int?
  let progress: StreamProgressReader?
  /// The largest response message taken (`--max-message-size`).
  let maxMessageSize: Int
  /// Set when an answer's message was refused for its size.
  private let oversize = SharedFlag()
  /// Whether an answer's message was over `maxMessageSize`.
  var answerTooLarge: Bool { oversize.isSet }
  private let received = Mutex(0)
  private let producerError = Mutex<(any Error)?>(nil)
  private let started = Mutex(false)

  init(
    method: MethodInfo, descriptor: MethodDescriptor, pool: DescriptorPool,
    sink: any CallEventSink, decode: DecodeOptions, maxEvents: Int?, progress: StreamProgressReader?,
    maxMessageSize: Int = GRPCSettings.defaultMaxMessageSize
  ) {
    self.maxMessageSize = maxMessageSize
    self.method = method
    self.descriptor = descriptor
    self.pool = pool
    self.sink = sink
    self.decode = decode
    self.maxEvents = maxEvents
    self.progress = progress
  }

  /// Response messages delivered so far.
  var messagesReceived: Int { received.withLock { $0 } }

  /// Whether a request message began to be written: grpc-swift asks for the messages only once
  /// the stream is open, so until then the server cannot have run the call.
  var requestStarted: Bool { started.withLock { $0 } }

  /// The call on grpc-swift's client.
  func run(_ messages: RequestMessages, client: GRPCClient<GRPCTransport>, metadata: Metadata, options: CallOptions)
    async throws -> CallOutcome
  {
    let request = StreamingClientRequest<[UInt8]>(metadata: metadata) { [self] writer in
      var writing = false
      do {
        switch messages.body {
        case .single(let bytes):
          writing = true
          self.started.withLock { $0 = true }
          try await writer.write(bytes)
        case .stream(let source):
          var index = 0
          for try await json in source {
            index += 1
            let bytes = try messages.encode(json, index: index)
            writing = true
            self.started.withLock { $0 = true }
            try await writer.write(bytes)
            writing = false
          }
        }
      } catch {
        // Keep the reason (bad input): GRPCCore reports a failed request stream as a cancelled
        // call. Not a failed write: the call ended first (a server that refused the stream half
        // way), and its status says why, not "I/O on closed channel".
        if !writing { self.producerError.withLock { $0 = error } }
        throw error
      }
    }
    do {
      return try await client.bidirectionalStreaming(
        request: request, descriptor: descriptor, serializer: RawBytesSerializer(),
        deserializer: RawBytesDeserializer(limit: maxMessageSize, refused: oversize), options: options
      ) { response in try await self.handle(response) }
    } catch {
      if let reason = producerError.withLock({ $0 }) { throw reason }
      throw error
    }
  }

  private func handle(_ response: StreamingClientResponse<[UInt8]>) async throws -> CallOutcome {
    let contents = try response.accepted.get()
    try receiveHead(contents.metadata)
    var trailers: [HeaderField] = []
    var count = 0
    for try await part in contents.bodyParts {
      switch part {
      case .message(let bytes):
        count += 1
        try receive(bytes, number: count)
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

  /// The response's initial metadata.
  func receiveHead(_ metadata: Metadata) throws {
    try sink.receive(.responseHead(status: 200, version: "HTTP/2", headers: GRPCMetadata.fields(metadata)))
    if !method.serverStreaming { try sink.receive(.singleAnswer) }
  }

  /// Response message number `number`, decoded and printed.
  func receive(_ bytes: [UInt8], number: Int) throws {
    let json = try protobuf { () throws(ProtobufError) in
      try pool.decode(bytes, as: method.output, options: decode)
    }
    received.withLock { $0 = number }
    try sink.receive(.message(json))
    if let progress { try reportProgress(progress, in: bytes, printed: json) }
  }

  /// The declared progress of one response message. proto3 JSON leaves out a field that holds
  /// its default value (the first status's `progress: 0`), so when a declared path is missing
  /// from the printed message, the paths are read in the message decoded with defaults. Only
  /// then: decoding every message twice halved a stream's throughput (100,000 messages:
  /// 75,000 -> 46,000 msg/s).
  private func reportProgress(_ progress: StreamProgressReader, in bytes: [UInt8], printed: JSONValue) throws {
    var (update, complete) = progress.readAll(printed)
    if !decode.emitDefaults, !complete {
      var full = decode
      full.emitDefaults = true
      let value = try protobuf { () throws(ProtobufError) in try pool.decode(bytes, as: method.output, options: full) }
      update = progress.read(value)
    }
    if let update { try sink.receive(update) }
  }
}
