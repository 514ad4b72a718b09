import APXCore
import APXProtobuf
import GRPCCore
import NIOCore

/// Asks a server for its schema over gRPC server reflection: the service
/// list, and the .proto files that define a symbol together with everything
/// they import (fetched transitively, in one stream). Speaks
/// `grpc.reflection.v1` and falls back to `v1alpha` when the server answers
/// UNIMPLEMENTED (Python's grpcio-reflection, older Go servers).
struct ReflectionClient {
  let client: GRPCClient<GRPCTransport>
  /// The server asked, as the user would name it to `apx list` (for hints).
  let target: GRPCTarget
  /// Metadata sent with reflection calls (registry headers, `-H`, credentials).
  let metadata: Metadata
  let timeout: Duration?

  static let services = ["grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"]

  /// Fully qualified names of the services the server offers, sorted.
  func listServices() async throws -> [String] {
    try await withFallback { service in
      try await exchange(service: service, plan: ServiceListPlan()).names.sorted()
    }
  }

  /// Serialized `FileDescriptorProto`s of the file defining `symbol` and all its imports.
  func files(containing symbol: String) async throws -> [[UInt8]] {
    try await withFallback { service in
      Array(try await exchange(service: service, plan: FileClosurePlan(symbol: symbol, target: target)).files.values)
    }
  }

  /// Runs `body` against reflection v1, then v1alpha if v1 is UNIMPLEMENTED.
  private func withFallback<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
    do {
      return try await body(Self.services[0])
    } catch let error as RPCError where error.code == .unimplemented {
      do {
        return try await body(Self.services[1])
      } catch let error as RPCError where error.code == .unimplemented {
        throw APXError(
          .usage, "the server does not offer gRPC server reflection",
          hint: "give apx the schema: `apx call`, `apx describe` and `apx list` take --protoset FILE.protoset or "
            + "--proto FILE.proto; "
            + "a registry endpoint, {\"protoset\": \"FILE.protoset\"} or {\"proto\": [\"FILE.proto\"]}")
      }
    }
  }

  /// One reflection stream: sends the plan's first request, then whatever
  /// the plan asks for after each answer, and returns as soon as no answer is
  /// outstanding: grpc-swift then ends the stream (END_STREAM, then RST_STREAM CANCEL) rather
  /// than wait a round trip for the server's trailers. grpcurl does not wait either: it starts
  /// the call while its reflection stream is open and half-closes that stream at the end.
  private func exchange<Plan: ReflectionPlan>(service: String, plan: Plan) async throws -> Plan {
    let (requests, continuation) = AsyncStream<[UInt8]>.makeStream()
    continuation.yield(ReflectionWire.encode(plan.first))
    let request = StreamingClientRequest<[UInt8]>(metadata: metadata) { writer in
      for await message in requests { try await writer.write(message) }
    }
    var options = CallOptions.defaults
    options.timeout = timeout
    return try await client.bidirectionalStreaming(
      request: request,
      descriptor: MethodDescriptor(fullyQualifiedService: service, method: "ServerReflectionInfo"),
      serializer: RawBytesSerializer(), deserializer: RawBytesDeserializer(), options: options
    ) { response in
      defer { continuation.finish() }
      var plan = plan
      var outstanding = 1
      for try await bytes in response.messages {
        let more = try plan.handle(try ReflectionWire.decode(bytes))
        outstanding += more.count - 1
        for next in more { continuation.yield(ReflectionWire.encode(next)) }
        if outstanding <= 0 { break }
      }
      guard outstanding <= 0 else {
        throw APXError(
          .remoteFailure, "the server's reflection stream ended before answering every request",
          hint: ReflectionClient.unusableAnswerHint)
      }
      return plan
    }
  }

  /// The schema in the files the server's reflection sent for `service`. Descriptors that do not
  /// decode or do not link are the server's fault, not the user's: exit 10 (a remote failure),
  /// the problem in words, and the way around it (a protoset or .proto files).
  static func pool(of service: String, from files: [[UInt8]], target: GRPCTarget) throws(APXError) -> DescriptorPool {
    do {
      return try DescriptorPool(serializedFiles: files)
    } catch {
      throw unusableAnswer(error, service: service, target: target)
    }
  }

  /// A reflection answer for `service` that `DescriptorPool` refused with `error`.
  static func unusableAnswer(_ error: ProtobufError, service: String, target: GRPCTarget) -> APXError {
    APXError(
      .remoteFailure, "the schema \(target) sent over reflection for \(service) cannot be used",
      hint: unusableAnswerHint,
      cause: [error.message, error.underlyingText].compactMap { $0 }.joined(separator: ": "), underlying: error)
  }

  /// What to do about a reflection answer apx cannot use: do without it.
  static let unusableAnswerHint =
    "give apx the schema instead: --protoset FILE.protoset or --proto FILE.proto (in a registry endpoint, "
    + "{\"protoset\": \"FILE.protoset\"} or {\"proto\": [\"FILE.proto\"]}); or report the broken reflection "
    + "answer to the server's owner"

  static func reflectionError(code: Int, message: String, asked: String) -> APXError {
    APXError(
      .remoteFailure, "the server's reflection service could not send \(asked): \(message) (code \(code))",
      hint: "give the endpoint a protoset instead: {\"protoset\": \"FILE.protoset\"}")
  }
}

/// The name and imports of a serialized `FileDescriptorProto` (fields 1 and
/// 3), read without decoding the rest.
struct FileDescriptorHeader {
  var name = ""
  var dependencies: [String] = []

  init(bytes: [UInt8]) {
    var reader = ReflectionWire.Reader(bytes: bytes[...])
    while let (field, value) = try? reader.next() {
      guard case .bytes(let text) = value else { continue }
      if field == 1 { name = String(decoding: text, as: UTF8.self) }
      if field == 3 { dependencies.append(String(decoding: text, as: UTF8.self)) }
    }
  }
}

/// What one reflection stream asks, answer by answer.
protocol ReflectionPlan: Sendable {
  /// The first request.
  var first: ReflectionWire.Request { get }
  /// Takes one answer and returns the follow-up requests (none when done).
  mutating func handle(_ answer: ReflectionWire.Response) throws(APXError) -> [ReflectionWire.Request]
}

/// `list_services`.
struct ServiceListPlan: ReflectionPlan {
  var names: [String] = []
  var first: ReflectionWire.Request { .listServices }

  mutating func handle(_ answer: ReflectionWire.Response) throws(APXError) -> [ReflectionWire.Request] {
    switch answer {
    case .services(let list): names = list
    case .error(let code, let message):
      throw ReflectionClient.reflectionError(code: code, message: message, asked: "its service list")
    case .files, .other: break
    }
    return []
  }
}

/// `file_containing_symbol`, then `file_by_filename` for every import not yet received.
struct FileClosurePlan: ReflectionPlan {
  let symbol: String
  let target: GRPCTarget
  var files: [String: [UInt8]] = [:]
  private var requested: Set<String> = []
  private var answered = 0

  init(symbol: String, target: GRPCTarget) {
    self.symbol = symbol
    self.target = target
  }

  var first: ReflectionWire.Request { .fileContainingSymbol(symbol) }

  mutating func handle(_ answer: ReflectionWire.Response) throws(APXError) -> [ReflectionWire.Request] {
    answered += 1
    switch answer {
    case .files(let list):
      let headers = list.map(FileDescriptorHeader.init(bytes:))
      for (header, bytes) in zip(headers, list) {
        files[header.name] = bytes
        requested.insert(header.name)
      }
      var next: [ReflectionWire.Request] = []
      for dependency in headers.flatMap(\.dependencies) where !requested.contains(dependency) {
        requested.insert(dependency)
        next.append(.fileByFilename(dependency))
      }
      return next
    case .error(let code, let message):
      if answered == 1 {
        throw APXError(
          .usage, "the server's reflection does not know \"\(symbol)\" (\(message.isEmpty ? "code \(code)" : message))",
          hint: "check the service name; `apx list \(target)` lists the services the server offers")
      }
      throw ReflectionClient.reflectionError(code: code, message: message, asked: "an imported .proto file")
    case .services, .other:
      return []
    }
  }
}
