public import APXCore
import APXProtobuf
public import GRPCCore
import Synchronization

/// Forwards gRPC calls of every kind to an upstream server and records each into an HTTP
/// archive (`apx mock --record DIR --grpc-upstream grpc://HOST:PORT`), in the form
/// `apx call --har` records gRPC calls: a `POST` of the method's path, the metadata as
/// headers (credentials masked), the request messages as JSON in `postData`, the answers and
/// trailers in `_apx` (the status as `grpc-status` and `grpc-message` trailers). Messages are
/// relayed as bytes and decoded for the record with the descriptors read from the upstream's
/// server reflection.
public struct GRPCRecordingProxy: Sendable {
  /// The upstream, as the archive names it (`grpc://127.0.0.1:50051`).
  public let target: GRPCTarget
  /// The upstream's serialized `FileDescriptorSet`, read over its reflection.
  public let descriptorSet: [UInt8]
  /// Every method of the upstream's services but reflection's.
  public let methods: [MethodDescriptor]
  let pool: DescriptorPool
  let session: GRPCSession
  let archive: RecordingArchive

  /// Reads the services of `upstream` (a `grpc://` or `grpcs://` address) over its server
  /// reflection, to forward through `session` and record into `archive`.
  /// - Throws: `APXError` when the address is not one, or its reflection cannot be read.
  public static func connect(
    upstream: String, session: GRPCSession, archive: RecordingArchive, timeout: Double = 10
  ) async throws -> GRPCRecordingProxy {
    let target = try GRPCTarget(parsing: upstream)
    let set: [UInt8]
    do {
      let reflection = ReflectionClient(
        client: try await session.client(for: target, timeout: timeout), target: target, metadata: [:],
        timeout: GRPCRetry.duration(timeout))
      let services = try await reflection.listServices().filter { !ReflectionClient.services.contains($0) }
      set = try await GRPCInspector.descriptorSet(of: services, from: reflection)
    } catch let error as RPCError {
      throw GRPCInspector.reflectionFailure(error, target: target, settings: session.settings)
    }
    let pool = try protobuf { () throws(ProtobufError) in try DescriptorPool(protoset: set) }
    var methods: [MethodDescriptor] = []
    for service in pool.services where !ReflectionClient.services.contains(service) {
      for name in try protobuf({ () throws(ProtobufError) in try pool.methods(of: service) }) {
        methods.append(MethodDescriptor(fullyQualifiedService: service, method: name))
      }
    }
    // What a replay needs to encode the recorded messages again.
    archive.log.setCustom("_apx", .object([JSONMember("descriptorSets", .array([.string(Base64.encode(set))]))]))
    return GRPCRecordingProxy(
      target: target, descriptorSet: set, methods: methods, pool: pool, session: session, archive: archive)
  }

  /// Metadata gRPC itself sets on each hop: not passed on.
  static let ownMetadata: Set<String> = ["content-type", "te", "user-agent", "host", "grpc-timeout"]

  /// `metadata` without what gRPC sets on each hop (pseudo-headers, `content-type`, `te`,
  /// `grpc-*`): what one side passes on to the other.
  static func passed(_ metadata: Metadata) -> Metadata {
    var out = Metadata()
    for (key, value) in metadata {
      let name = key.lowercased()
      guard !ownMetadata.contains(name), !name.hasPrefix(":"), !name.hasPrefix("grpc-") else { continue }
      switch value {
      case .string(let text): out.addString(text, forKey: key)
      case .binary(let bytes): out.addBinary(bytes, forKey: key)
      }
    }
    return out
  }

  /// Relays one call to the upstream and its answer back, recording both once the call ends.
  public func forward(_ request: StreamingServerRequest<[UInt8]>, method: MethodDescriptor) async throws
    -> StreamingServerResponse<[UInt8]>
  {
    if let failure = archive.failure {
      throw RPCError(code: .unavailable, message: "apx mock stopped recording: \(failure.message)")
    }
    let info = try? pool.method(service: method.service.fullyQualifiedService, method: method.method)
    let forwarded = Self.passed(request.metadata)
    let fields = GRPCMetadata.fields(forwarded)
    let mask = {
      var mask = SecretMask()
      mask.addCredentialValues(of: fields)
      return mask
    }()
    let client = try await session.client(for: target, timeout: 10)
    let recorder = archive.begin()
    recorder.record(
      .requestSent(
        method: "POST", url: "\(target)/\(method.fullyQualifiedMethod)", headers: mask.mask(fields), attempt: 1))
    recorder.record(.secrets(mask))
    let pool = self.pool
    let archive = self.archive
    let requests = Mutex<[JSONValue]>([])
    let answers = Mutex<[JSONValue]>([])
    return StreamingServerResponse { writer in
      let headSeen = Atomic<Bool>(false)
      func finish(_ trailers: Metadata, code: RPCError.Code?, message: String) {
        if !headSeen.load(ordering: .relaxed) {
          recorder.record(
            .responseHead(status: 200, version: "HTTP/2", headers: [HeaderField("content-type", "application/grpc")]))
        }
        let sent = JSONValue.array(requests.withLock { $0 })
        // Credential fields of the messages (`password`, `access_token`) are masked wherever they show.
        var mask = mask
        mask.addCredentialMembers(of: sent)
        mask.addCredentialMembers(of: .array(answers.withLock { $0 }))
        recorder.record(.secrets(mask))
        if let summary = RequestBodySummary(
          .bytes(JSONPrinter(style: .compact).bytes(sent), contentType: "application/json"), mask: mask)
        {
          recorder.record(.requestBody(summary))
        }
        var fields = GRPCMetadata.fields(trailers)
        fields.append(HeaderField("grpc-status", String(code?.rawValue ?? 0)))
        if !message.isEmpty { fields.append(HeaderField("grpc-message", message)) }
        recorder.record(.trailers(mask.mask(fields)))
        recorder.record(.finished(status: 200, attempts: 1, failure: nil))
        archive.end(recorder)
      }
      let call = StreamingClientRequest<[UInt8]>(metadata: forwarded) { out in
        for try await message in request.messages {
          let json = info.flatMap { try? pool.decode(message, as: $0.input) } ?? .string(Base64.encode(message))
          requests.withLock { $0.append(json) }
          try await out.write(message)
        }
      }
      do {
        let trailers = try await client.bidirectionalStreaming(
          request: call, descriptor: method, serializer: RawBytesSerializer(), deserializer: RawBytesDeserializer(),
          options: .defaults
        ) { response in
          let contents = try response.accepted.get()
          headSeen.store(true, ordering: .relaxed)
          let head =
            [HeaderField("content-type", "application/grpc")] + GRPCMetadata.fields(Self.passed(contents.metadata))
          recorder.record(.responseHead(status: 200, version: "HTTP/2", headers: mask.mask(head)))
          var trailing = Metadata()
          for try await part in contents.bodyParts {
            switch part {
            case .message(let bytes):
              let json = info.flatMap { try? pool.decode(bytes, as: $0.output) } ?? .string(Base64.encode(bytes))
              recorder.record(.message(json))
              answers.withLock { $0.append(json) }
              try await writer.write(bytes)
            case .trailingMetadata(let metadata):
              trailing = metadata
            }
          }
          return trailing
        }
        let passedTrailers = Self.passed(trailers)
        finish(passedTrailers, code: nil, message: "")
        return passedTrailers
      } catch let error as RPCError {
        // The upstream's status goes back as it came; its transport's own fields do not.
        let failure = RPCError(code: error.code, message: error.message, metadata: Self.passed(error.metadata))
        finish(failure.metadata, code: failure.code, message: failure.message)
        throw failure
      }
    }
  }
}
