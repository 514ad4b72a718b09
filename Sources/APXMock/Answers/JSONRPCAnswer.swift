import APXCore

/// JSON-RPC 2.0 over HTTP: a call (or a batch) is answered by the method's endpoint, its
/// result the endpoint's declared example or a value generated from its declared schema.
struct JSONRPCAnswer {
  /// The API's JSON-RPC endpoints served at the request's path.
  let endpoints: [Endpoint]

  func answer(_ request: MockRequest, generator: inout ValueGenerator) -> MockAnswer {
    guard let body = request.jsonBody else {
      return .json(200, error(id: .null, code: -32700, message: "Parse error: the body is not JSON"))
    }
    if case .array(let calls) = body {
      guard !calls.isEmpty else {
        return .json(200, error(id: .null, code: -32600, message: "Invalid Request: empty batch"))
      }
      let answers = calls.compactMap { answer(call: $0, generator: &generator) }
      return answers.isEmpty ? MockAnswer(status: 204) : .json(200, .array(answers))
    }
    guard let one = answer(call: body, generator: &generator) else { return MockAnswer(status: 204) }
    return .json(200, one)
  }

  /// The answer object of one call; nil for a notification (no `id`).
  private func answer(call: JSONValue, generator: inout ValueGenerator) -> JSONValue? {
    guard case .object = call, call["jsonrpc"]?.stringValue == "2.0", let method = call["method"]?.stringValue else {
      return error(id: call["id"] ?? .null, code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 call")
    }
    let id = call["id"]
    guard let endpoint = endpoints.first(where: { $0.jsonrpc?.rpcMethod == method }) else {
      return id.map { error(id: $0, code: -32601, message: "Method not found: \(method)") }
    }
    guard let id else { return nil }
    let response = endpoint.responses.first { ($0.code ?? 200) / 100 == 2 } ?? endpoint.responses.first
    let result =
      response?.examples.first?.value ?? response?.schema.map { generator.value(for: $0) } ?? .object([])
    return .object([JSONMember("jsonrpc", .string("2.0")), JSONMember("id", id), JSONMember("result", result)])
  }

  private func error(id: JSONValue, code: Int, message: String) -> JSONValue {
    .object([
      JSONMember("jsonrpc", .string("2.0")), JSONMember("id", id),
      JSONMember("error", .object([JSONMember("code", .int(code)), JSONMember("message", .string(message))])),
    ])
  }
}
