/// JSON-RPC 2.0 (https://www.jsonrpc.org/specification) as plain data: the
/// request objects apx sends and the checks on the answers it reads. Values
/// stay `JSONValue`s, so numbers keep their text and objects their key order.
public enum JSONRPCMessage {
  /// One request object; a notification has no `id`. `params` is left out when nil.
  public static func request(method: String, params: JSONValue?, id: Int?) -> JSONValue {
    var members = [JSONMember("jsonrpc", .string("2.0")), JSONMember("method", .string(method))]
    if let params { members.append(JSONMember("params", params)) }
    if let id { members.append(JSONMember("id", .number(String(id)))) }
    return .object(members)
  }

  /// The request object of call `index` (0-based) of one HTTP request: its
  /// `params` built from `body` (see `params`), id `index + 1`, none for a notification.
  public static func request(
    for endpoint: Endpoint, options: JSONRPCOptions, body: JSONValue?, explicit: Bool, index: Int
  ) throws(APXError) -> JSONValue {
    let params = try params(endpoint: endpoint, paramsBy: options.paramsBy, body: body, explicit: explicit)
    return request(method: options.rpcMethod, params: params, id: options.notification ? nil : index + 1)
  }

  /// The `params` of a call: the body parameters the request builder put in
  /// `body` (an object in declaration order), as that object (`params_by:
  /// name`) or as an array in declaration order (`position`, omitted optional
  /// parameters before a given one sent as null). An explicit `-d` body is
  /// sent as it is. Nil when there are no parameters.
  public static func params(
    endpoint: Endpoint, paramsBy: JSONRPCOptions.ParamsBy, body: JSONValue?, explicit: Bool
  ) throws(APXError) -> JSONValue? {
    guard let body else { return nil }
    if explicit {
      guard body.objectMembers != nil || body.arrayValue != nil else {
        throw APXError(
          .usage, "JSON-RPC params must be an object or an array, got \(body.typeName)",
          hint: "pass -d '{\"name\": value}' or -d '[value, ...]'")
      }
      return body
    }
    guard paramsBy == .position, let members = body.objectMembers else { return body }
    let declared = endpoint.params.filter { $0.location == .body }
    var items = declared.map { param in members.first { $0.key == param.sentName }?.value }
    while let last = items.last, last == nil { items.removeLast() }
    return .array(items.map { $0 ?? .null })
  }

  /// What the server answered to one request.
  public enum Outcome: Sendable, Equatable {
    case result(JSONValue)
    case error(JSONRPCError)
  }

  /// The answers in `body` for the ids sent, in the order of `ids`.
  ///
  /// - Parameter batch: a batch was sent (an array answer is expected).
  /// - Throws: `APXError` (`.expectation`) when the body is not a JSON-RPC 2.0
  ///   answer, an answer is missing or unexpected, or an error object is
  ///   malformed. A lone error with a null id (a parse error or invalid
  ///   request the server could not match) is returned as the outcome of every id.
  public static func answers(_ body: JSONValue, ids: [Int], batch: Bool) throws(APXError) -> [Outcome] {
    let objects: [JSONValue]
    switch body {
    case .array(let items) where batch: objects = items
    case .object where !batch: objects = [body]
    case .object:
      // A server that cannot read a batch at all answers one error object.
      let lone = try answer(body)
      guard case .error = lone.outcome, lone.id == .null else {
        throw malformed("a batch was answered with a single object that is not an error")
      }
      return ids.map { _ in lone.outcome }
    default:
      throw malformed(batch ? "a batch must be answered with an array" : "the answer must be a JSON object")
    }
    var byID: [String: Outcome] = [:]
    var unmatched: [Outcome] = []
    for object in objects {
      let parsed = try answer(object)
      guard case .number(let text) = parsed.id else {
        if parsed.id == .null, case .error = parsed.outcome {
          unmatched.append(parsed.outcome)
        } else {
          throw malformed("an answer carries the id \(parsed.id.compactJSON), which apx did not send")
        }
        continue
      }
      guard let id = Int(text), ids.contains(id) else {
        throw malformed("an answer carries the id \(text), which apx did not send")
      }
      guard byID[text] == nil else { throw malformed("two answers carry the id \(text)") }
      byID[text] = parsed.outcome
    }
    return try ids.map { id throws(APXError) in
      if let outcome = byID[String(id)] { return outcome }
      if let lone = unmatched.first { return lone }
      throw malformed("no answer carries the id \(id)")
    }
  }

  /// One response object: its id and outcome, checked against the specification.
  static func answer(_ value: JSONValue) throws(APXError) -> (id: JSONValue, outcome: Outcome) {
    guard let members = value.objectMembers else { throw malformed("an answer is \(value.typeName), not an object") }
    guard value["jsonrpc"] == .string("2.0") else { throw malformed("an answer lacks \"jsonrpc\": \"2.0\"") }
    guard let id = value["id"] else { throw malformed("an answer has no id") }
    let hasResult = members.contains { $0.key == "result" }
    let error = value["error"]
    switch (hasResult, error) {
    case (true, nil):
      return (id, .result(value["result"] ?? .null))
    case (false, let error?):
      guard case .number(let codeText) = error["code"] ?? .null, let code = Int(codeText),
        case .string(let message) = error["message"] ?? .null
      else {
        throw malformed("an error object needs an integer \"code\" and a string \"message\"")
      }
      return (id, .error(JSONRPCError(code: code, message: message, data: error["data"])))
    default:
      throw malformed("an answer must hold exactly one of \"result\" and \"error\"")
    }
  }

  /// The error for an answer that breaks the specification.
  public static func malformed(_ what: String) -> APXError {
    APXError(
      .expectation, "the server's answer is not valid JSON-RPC 2.0: \(what)",
      hint: "check that the endpoint speaks JSON-RPC 2.0 (apx describe shows its rpc_method)")
  }
}

/// A JSON-RPC error object.
public struct JSONRPCError: Sendable, Equatable {
  public var code: Int
  public var message: String
  public var data: JSONValue?

  public init(code: Int, message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  /// The specification's name for a reserved code, if it has one.
  public var meaning: String? {
    switch code {
    case -32700: "parse error"
    case -32600: "invalid request"
    case -32601: "method not found"
    case -32602: "invalid params"
    case -32603: "internal error"
    case -32099 ... -32000: "server error"
    default: nil
    }
  }

  /// `code message` with the reserved meaning, e.g. `-32601 Method not found (method not found)`.
  public var summary: String {
    "\(code) \(message)" + (meaning.map { $0.lowercased() == message.lowercased() ? "" : " (\($0))" } ?? "")
  }
}
