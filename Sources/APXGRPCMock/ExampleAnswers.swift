import APXCore
import APXProtobuf
import GRPCCore

/// Every method of some services, answered with examples of its output type: one answer to a
/// unary or client-streaming call, `streamMessages` to a server stream, one per request on a
/// bidirectional stream. Each request is decoded by its input type first, and one that is not
/// a valid message of it is `INVALID_ARGUMENT`.
struct ExampleAnswers: RegistrableRPCService {
  let pool: DescriptorPool
  let methods: [MethodInfo]
  let examples: ProtoExample
  let streamMessages: Int
  let fault: @Sendable (Metadata, MethodInfo) -> GRPCMockFault?
  /// Milliseconds to wait before answering a call.
  let latency: @Sendable (Metadata, MethodInfo) -> Int
  let observe: @Sendable (GRPCMockCall) -> Void

  func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
    for method in methods {
      router.registerHandler(
        forMethod: MethodDescriptor(fullyQualifiedService: method.service, method: method.name),
        deserializer: RawBytesCoding(), serializer: RawBytesCoding()
      ) { request, _ in
        await self.answer(method, request)
      }
    }
  }

  private func answer(_ method: MethodInfo, _ request: StreamingServerRequest<[UInt8]>) async
    -> StreamingServerResponse<[UInt8]>
  {
    let delay = latency(request.metadata, method)
    if delay > 0 { try? await Task.sleep(for: .milliseconds(delay)) }
    let metadata = request.metadata.map { entry -> (name: String, value: String) in
      switch entry.value {
      case .string(let text): (entry.key, text)
      case .binary(let bytes): (entry.key, "(\(bytes.count) bytes)")
      }
    }
    let injected = fault(request.metadata, method)
    if let injected, !injected.afterHeaders {
      observe(
        GRPCMockCall(
          path: method.path, requests: 0, responses: 0, status: injected.code, fault: injected, metadata: metadata,
          latency: delay))
      return StreamingServerResponse(error: Self.error(for: injected))
    }
    return StreamingServerResponse { writer in
      var call = GRPCMockCall(
        path: method.path, requests: 0, responses: 0, status: nil, fault: injected, metadata: metadata, latency: delay)
      do {
        if let injected { throw Self.error(for: injected) }
        for try await bytes in request.messages {
          call.requests += 1
          try check(bytes, method)
          if method.clientStreaming && method.serverStreaming {
            try await writer.write(try example(method, index: call.responses))
            call.responses += 1
          }
        }
        if !method.clientStreaming && call.requests != 1 {
          throw RPCError(
            code: .invalidArgument, message: "\(method.path) takes one request message, got \(call.requests)")
        }
        if !(method.clientStreaming && method.serverStreaming) {
          for index in 0..<(method.serverStreaming ? streamMessages : 1) {
            try await writer.write(try example(method, index: index))
            call.responses += 1
          }
        }
        observe(call)
        return [:]
      } catch {
        call.status = (error as? RPCError)?.code ?? .unknown
        observe(call)
        throw error
      }
    }
  }

  private func check(_ bytes: [UInt8], _ method: MethodInfo) throws(RPCError) {
    do {
      _ = try pool.decode(bytes, as: method.input)
    } catch {
      throw RPCError(code: .invalidArgument, message: "the request is not a valid \(method.input.fullName): \(error)")
    }
  }

  private func example(_ method: MethodInfo, index: Int) throws(RPCError) -> [UInt8] {
    do {
      return try pool.encode(examples.message(method.output, index: index), as: method.output)
    } catch {
      throw RPCError(
        code: .internalError, message: "apx mock cannot make an example \(method.output.fullName): \(error)")
    }
  }

  private static func error(for fault: GRPCMockFault) -> RPCError {
    RPCError(code: fault.code, message: "apx mock: " + (fault.message ?? "injected fault \(fault.code)"))
  }
}
