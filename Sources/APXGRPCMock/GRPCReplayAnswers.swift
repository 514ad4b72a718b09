public import APXCore
public import APXMock
import APXProtobuf
public import GRPCCore

/// gRPC calls answered with recorded ones (`apx mock --replay` of an archive `--record` wrote
/// with `--grpc-upstream`): a call matches a recorded one of the same method whose request
/// messages are the same (as JSON values; a recording without them matches any), and gets its
/// messages, trailers and status. The request stream is read to its end before the answer, so
/// a bidirectional call is answered once the client half-closes.
public struct GRPCReplayAnswers: Sendable {
  let replay: HARReplay
  let pool: DescriptorPool
  let report: @Sendable (String) -> Void
  /// The recorded methods the descriptors know.
  public let methods: [MethodDescriptor]
  /// The descriptors, as one serialized `FileDescriptorSet` (for reflection).
  public let descriptorSet: [UInt8]

  /// Answers from the gRPC exchanges of `replay`, whose messages the serialized
  /// `FileDescriptorSet`s in `descriptorSets` describe; nil when it holds none.
  /// - Throws: `APXError` when the descriptors cannot be read.
  public init?(
    _ replay: HARReplay, descriptorSets: [[UInt8]], report: @escaping @Sendable (String) -> Void
  ) throws(APXError) {
    let paths = Set(replay.exchanges.filter { $0.grpcMessages != nil }.map(\.path))
    guard !paths.isEmpty, !descriptorSets.isEmpty else { return nil }
    do {
      descriptorSet = try DescriptorSetMerge.merged(descriptorSets)
      pool = try DescriptorPool(protoset: descriptorSet)
    } catch {
      throw APXError(.invalidDefinition, "the recorded gRPC descriptors cannot be read: \(error)")
    }
    let pool = self.pool
    methods = paths.sorted().compactMap { path -> MethodDescriptor? in
      let parts = path.split(separator: "/")
      guard parts.count == 2 else { return nil }
      let method = MethodDescriptor(fullyQualifiedService: String(parts[0]), method: String(parts[1]))
      return (try? pool.method(service: method.service.fullyQualifiedService, method: method.method)) == nil
        ? nil : method
    }
    self.replay = replay
    self.report = report
  }

  /// The recorded answer to one call, or `NOT_FOUND` naming the nearest recorded call.
  public func answer(_ request: StreamingServerRequest<[UInt8]>, method: MethodDescriptor) async throws
    -> StreamingServerResponse<[UInt8]>
  {
    let info = try pool.method(service: method.service.fullyQualifiedService, method: method.method)
    var sent: [JSONValue] = []
    for try await bytes in request.messages {
      do {
        sent.append(try pool.decode(bytes, as: info.input))
      } catch {
        throw RPCError(code: .invalidArgument, message: "the request is not a valid \(info.input.fullName): \(error)")
      }
    }
    let path = "/" + method.fullyQualifiedMethod
    let body = JSONPrinter(style: .compact).bytes(.array(sent))
    let exchange: HARExchange
    switch replay.answer(method: "POST", path: path, query: [], body: body) {
    case .recorded(let recorded):
      exchange = recorded
    case .unmatched(let nearest):
      report("apx mock: not recorded: \(path)")
      let hint = nearest.map { "; the nearest is \($0.requestLine) (\($0.source))" } ?? ""
      throw RPCError(code: .notFound, message: "apx mock: \(path) with these messages matches no recorded call\(hint)")
    }
    guard let messages = exchange.grpcMessages else {
      throw RPCError(code: .internalError, message: "apx mock: \(exchange.source) is not a gRPC call")
    }
    var trailers = Metadata()
    var status = 0
    var statusMessage = ""
    for field in exchange.grpcTrailers {
      switch field.name.lowercased() {
      case "grpc-status": status = Int(field.value) ?? 2
      case "grpc-message": statusMessage = field.value
      default: trailers.addString(field.value, forKey: field.name)
      }
    }
    let answers = try messages.map { message throws(RPCError) -> [UInt8] in
      do {
        return try pool.encode(message, as: info.output)
      } catch {
        throw RPCError(code: .internalError, message: "apx mock: \(exchange.source) cannot be encoded: \(error)")
      }
    }
    let failure =
      status == 0
      ? nil
      : RPCError(
        code: Status.Code(rawValue: status).flatMap { RPCError.Code($0) } ?? .unknown, message: statusMessage,
        metadata: trailers)
    let ending = trailers
    return StreamingServerResponse { writer in
      for answer in answers { try await writer.write(answer) }
      if let failure { throw failure }
      return ending
    }
  }
}
