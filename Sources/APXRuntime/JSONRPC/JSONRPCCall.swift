import APXCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// The JSON-RPC 2.0 transport: one call, or a batch of calls in one request,
/// over HTTP (POST by default). The parameters are built like a REST body
/// (declared params, or `-d` as the params themselves) and sent as `params`
/// by name or by position; each call gets an id, a notification none. The
/// answer is checked against the specification and matched by id; a result
/// becomes the body (`-o`, `--select` and recipes see the result itself, a
/// batch the answers in request order), an error object an `APXError` with
/// exit status 11 whose message holds the code and message, and its cause the data.
struct JSONRPCCall: Transport {
  let session: HTTPSession
  let environment: [String: String]
  /// The call's overall time limit, for messages.
  let timeout: Double?
  /// A batch: the calls sent together (the request given to `resolve` is the
  /// first of them). Empty for a single call.
  let batch: [CallRequest]

  /// Largest answer read; JSON-RPC answers are documents, not streams.
  static let answerLimit = 64 * 1024 * 1024

  /// One call of the request.
  struct Member: Sendable {
    /// `API.ENDPOINT`, for messages.
    let name: String
    /// Nil for a notification.
    let id: Int?
  }

  struct Attempt: Sendable {
    let http: HTTPAttempt
    let members: [Member]
    let isBatch: Bool
    let idempotent: Bool
  }

  func resolve(_ request: CallRequest, credentials: Credentials) async throws -> Attempt {
    let calls = batch.isEmpty ? [request] : batch
    var envelopes: [JSONValue] = []
    var members: [Member] = []
    var first: HTTPAttempt?
    for (index, call) in calls.enumerated() {
      let name = "\(call.api.name).\(call.endpoint.name)"
      guard let options = call.endpoint.jsonrpc else {
        throw APXError(
          .usage, "\(name) is a \(call.endpoint.kind.rawValue) endpoint, not JSON-RPC",
          hint: "a batch holds JSON-RPC calls only")
      }
      if case .file = call.data {
        throw APXError(.usage, "\(name): JSON-RPC params come from -d JSON text, not a file")
      }
      if case .stdin = call.data {
        throw APXError(.usage, "\(name): JSON-RPC params come from -d JSON text, not stdin")
      }
      var attempt = try await HTTPAttempt.resolve(call, environment: environment, credentials: credentials)
      var body: JSONValue?
      if case .bytes(let bytes, _) = attempt.plan.body {
        do {
          body = try JSONParser.parse(bytes)
        } catch {
          throw APXError(.usage, "\(name): the params are not valid JSON", underlying: error)
        }
      }
      let id = options.notification ? nil : index + 1
      envelopes.append(
        try JSONRPCMessage.request(
          for: call.endpoint, options: options, body: body, explicit: call.data != nil, index: index))
      members.append(Member(name: name, id: id))
      if var head = first {
        guard attempt.plan.url == head.plan.url else {
          throw APXError(
            .usage, "the calls of a batch must go to one URL, but \(name) goes elsewhere",
            hint: "batch endpoints of one API that share a path")
        }
        for secret in attempt.plan.secrets { head.mask.add(secret) }
        first = head
      } else {
        attempt.plan.body = .none
        first = attempt
      }
    }
    guard var http = first else { throw APXError(.usage, "a batch needs at least one call") }
    let document = batch.isEmpty ? envelopes[0] : .array(envelopes)
    http.plan.body = .bytes(Array(document.compactJSON.utf8), contentType: "application/json")
    http.plan.headers.removeAll { $0.name.lowercased() == "content-type" }
    http.plan.headers.append(HeaderField("Content-Type", "application/json"))
    if http.plan.header("Accept") == nil { http.plan.setHeader("Accept", "application/json") }
    return Attempt(
      http: http, members: members, isBatch: !batch.isEmpty,
      idempotent: calls.allSatisfy { $0.endpoint.idempotent })
  }

  /// A JSON-RPC call may change state: repeated only when every endpoint in it is declared idempotent.
  func retrySafety(of attempt: Attempt) -> AttemptSafety {
    attempt.idempotent || isRetrySafe(method: attempt.http.plan.method, idempotent: false, hasIdempotencyKey: false)
      ? .safe : .notIdempotent
  }

  func presentedToken(in attempt: Attempt) -> String? { AuthApplier.bearerToken(in: attempt.http.plan) }

  func send(_ attempt: Attempt, context: AttemptContext, sink: any CallEventSink) async throws -> CallOutcome {
    let exchange = try await WholeAnswerExchange.send(
      attempt.http, session: session, context: context, sink: sink, timeout: timeout, limit: Self.answerLimit,
      what: "JSON-RPC")
    let (status, headers, body, plan, mask) = (
      exchange.status, exchange.headers, exchange.body, attempt.http.plan, attempt.http.mask
    )
    let ids = attempt.members.compactMap(\.id)
    let parsed = body.isEmpty ? nil : try? JSONParser.parse(body)

    guard (200..<300).contains(status) else {
      // Many servers carry a JSON-RPC error on a 4xx/5xx answer: show it, but retry by the HTTP status.
      var error = RESTCall.statusError(status: status, body: body, plan: plan, expected: nil, mask: mask)
      if let parsed, let outcomes = try? JSONRPCMessage.answers(parsed, ids: ids, batch: attempt.isBatch),
        let failure = Self.failure(outcomes, members: attempt.members.filter { $0.id != nil }, mask: mask)
      {
        error = failure
      }
      throw AttemptFailure(
        error, outcome: .status(status), retryAfter: exchange.retryAfter,
        credentialsRejected: status == 401)
    }
    if ids.isEmpty {
      // Only notifications: no answer is expected (the specification's 204, or an empty 200).
      return CallOutcome(status: status, headers: headers)
    }
    guard let parsed else {
      throw AttemptFailure(
        JSONRPCMessage.malformed(body.isEmpty ? "the body is empty" : "the body is not JSON"))
    }
    let outcomes: [JSONRPCMessage.Outcome]
    do {
      outcomes = try JSONRPCMessage.answers(parsed, ids: ids, batch: attempt.isBatch)
    } catch {
      throw AttemptFailure(error)
    }
    let answered = attempt.members.filter { $0.id != nil }
    let document: JSONValue
    if attempt.isBatch {
      document = .array(
        zip(answered, outcomes).map { member, outcome in
          switch outcome {
          case .result(let value):
            return .object([JSONMember("id", .number(String(member.id ?? 0))), JSONMember("result", value)])
          case .error(let error):
            var fields = [
              JSONMember("code", .number(String(error.code))), JSONMember("message", .string(error.message)),
            ]
            if let data = error.data { fields.append(JSONMember("data", data)) }
            return .object([JSONMember("id", .number(String(member.id ?? 0))), JSONMember("error", .object(fields))])
          }
        })
    } else if case .result(let value) = outcomes[0] {
      document = value
    } else {
      document = .null
    }
    if let failure = Self.failure(outcomes, members: answered, mask: mask) {
      // A batch still prints every answer; a single call prints nothing but the error.
      if attempt.isBatch { try Self.emit(document, to: sink) }
      throw AttemptFailure(failure)
    }
    try Self.emit(document, to: sink)
    return CallOutcome(status: status, headers: headers)
  }

  /// The body events for a result (compact JSON: numbers keep their text, objects their key order).
  static func emit(_ value: JSONValue, to sink: any CallEventSink) throws {
    try sink.receive(.bodyChunk(BodyChunk(Array(value.compactJSON.utf8))))
    try sink.receive(.bodyEnd)
  }

  /// The error for the error objects among `outcomes`, nil when there are none.
  static func failure(_ outcomes: [JSONRPCMessage.Outcome], members: [Member], mask: SecretMask) -> APXError? {
    let errors: [(Member, JSONRPCError)] = zip(members, outcomes).compactMap { member, outcome in
      if case .error(let error) = outcome { (member, error) } else { nil }
    }
    guard !errors.isEmpty else { return nil }
    let data = errors.compactMap { member, error in
      error.data.map { (errors.count > 1 ? "\(member.name) (id \(member.id ?? 0)) data: " : "data: ") + $0.compactJSON }
    }
    let message: String
    if errors.count == 1, members.count == 1 {
      message = "\(errors[0].0.name) failed with JSON-RPC error \(errors[0].1.summary)"
    } else {
      message =
        "\(errors.count) of \(members.count) calls in the batch failed: "
        + errors.map { "\($0.0.name) (id \($0.0.id ?? 0)) \($0.1.summary)" }.joined(separator: "; ")
    }
    return APXError(
      .jsonrpcError, mask.mask(message),
      hint: "the server refused the call: check the parameters with `apx describe`",
      cause: data.isEmpty ? nil : mask.mask(data.joined(separator: "\n  ")))
  }
}
