import APXCore
import APXGraphQL
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// The GraphQL over HTTP transport: the document is parsed (GraphQLSwift's parser) and its
/// operation picked before anything is sent; the endpoint's params, built like a JSON body, are
/// the variables; one POST carries `{"query", "variables", "operationName"}`. The answer's
/// `data` becomes the body (so `--select` and recipes see the data), or the whole answer with
/// `rawResponse`; `errors` end the call with exit 12 (after printing a partial answer's data),
/// unless `allowPartial` accepts data that came with errors.
struct GraphQLCall: Transport {
  let session: HTTPSession
  let environment: [String: String]
  /// The call's overall time limit, for messages.
  let timeout: Double?

  /// The media types of GraphQL over HTTP, the newer first.
  static let accept = "application/graphql-response+json, application/json;q=0.9"

  /// Largest answer read; GraphQL answers are documents, not streams.
  static let answerLimit = 64 * 1024 * 1024

  struct Attempt: Sendable {
    let http: HTTPAttempt
    let name: String
    let options: GraphQLOptions
    /// A query only reads: it may be sent again.
    let readOnly: Bool
    let idempotent: Bool
  }

  func resolve(_ request: CallRequest, credentials: Credentials) async throws -> Attempt {
    let envelope = try GraphQLEnvelope(request)
    let options = request.endpoint.graphql ?? GraphQLOptions(document: "")
    if envelope.isSubscription {
      throw APXError(
        .usage, "\(envelope.name): a subscription is a stream, not one POST",
        hint: "apx carries subscriptions over WebSocket or SSE (--graphql-transport ws|sse)")
    }
    try Self.refuseStreamOptions(options, name: envelope.name, operation: envelope.operation.kind)
    var http = try await HTTPAttempt.resolve(request, environment: environment, credentials: credentials)
    try envelope.apply(to: &http.plan, accept: Self.accept)
    return Attempt(
      http: http, name: envelope.name, options: options, readOnly: envelope.operation.kind == .query,
      idempotent: request.endpoint.idempotent)
  }

  /// `--graphql-transport`, `--until` and `--max-messages` (and a registry's `transport`) say
  /// how a subscription streams: on a query or mutation they would be ignored, so they are refused.
  static func refuseStreamOptions(
    _ options: GraphQLOptions, name: String, operation: GraphQLDocument.Operation.Kind
  ) throws(APXError) {
    guard options.hasStreamOptions else { return }
    let given =
      options.transport != nil
      ? "--graphql-transport (transport)"
      : options.until != nil
        ? "--until"
        : options.maxMessages != nil
          ? "--max-messages" : options.maxMessageSize != nil ? "--max-message-size" : "--reconnect-delay"
    throw APXError(
      .usage, "\(name): \(given) applies to a subscription, and this operation is a \(operation.rawValue)",
      hint: "a query or mutation is one POST: drop \(given)")
  }

  /// The endpoint's document: its `query` text, or the file `@PATH` names (relative to the
  /// registry file). A document never starts with `@`, so the prefix is unambiguous.
  static func documentText(_ request: CallRequest, options: GraphQLOptions) throws(APXError) -> String {
    try documentText(api: request.api, endpoint: request.endpoint.name, options: options)
  }

  /// `documentText(_:options:)` for `endpoint` of `api`.
  static func documentText(api: APIDefinition, endpoint: String, options: GraphQLOptions) throws(APXError) -> String {
    guard options.document.hasPrefix("@") else { return options.document }
    let path = SchemaPaths.resolve(
      String(options.document.dropFirst()), against: SchemaPaths.folder(of: api.sourceFile))
    let bytes = try FileBytes.read(path)
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw APXError(
        .invalidDefinition, "\(api.name).\(endpoint): \(path) is not UTF-8 text", file: api.sourceFile)
    }
    return text
  }

  /// A query only reads and may be sent again; a mutation only when declared idempotent.
  func retrySafety(of attempt: Attempt) -> AttemptSafety {
    attempt.readOnly || attempt.idempotent ? .safe : .notIdempotent
  }

  func presentedToken(in attempt: Attempt) -> String? { AuthApplier.bearerToken(in: attempt.http.plan) }

  func send(_ attempt: Attempt, context: AttemptContext, sink: any CallEventSink) async throws -> CallOutcome {
    let exchange = try await WholeAnswerExchange.send(
      attempt.http, session: session, context: context, sink: sink, timeout: timeout, limit: Self.answerLimit,
      what: "GraphQL")
    let (status, headers, body, plan, mask) = (
      exchange.status, exchange.headers, exchange.body, attempt.http.plan, attempt.http.mask
    )
    let parsed = body.isEmpty ? nil : try? JSONParser.parse(body)

    // GraphQL over HTTP answers a request error (syntax, validation, variables) with a 4xx in
    // its own media type: that is a GraphQL answer, exit 12 like the same errors sent with 200.
    // Auth, permission and rate limits keep their HTTP meaning.
    let requestError =
      (400..<500).contains(status) && ![401, 403, 407, 429].contains(status)
      && Self.isGraphQLResponse(headers)
      && parsed.flatMap({ try? GraphQLAnswer($0) }).map { !$0.errors.isEmpty } == true
    guard (200..<300).contains(status) || requestError else {
      // GraphQL over HTTP answers a request it refuses with 4xx and an errors list: the HTTP
      // status decides the exit code, and the errors are named with it.
      var error = RESTCall.statusError(status: status, body: body, plan: plan, expected: nil, mask: mask)
      if let parsed, let answer = try? GraphQLAnswer(parsed), !answer.errors.isEmpty {
        error.cause = mask.mask(GraphQLAnswer.listed(answer.errors))
      }
      throw AttemptFailure(
        error, outcome: .status(status), retryAfter: exchange.retryAfter,
        credentialsRejected: status == 401)
    }
    guard let parsed else {
      throw AttemptFailure(GraphQLAnswerError.notJSON(empty: body.isEmpty))
    }
    let answer: GraphQLAnswer
    do {
      answer = try GraphQLAnswer(parsed)
    } catch {
      throw AttemptFailure(error)
    }
    if attempt.options.rawResponse {
      // An answer with errors is a failure, shown masked as an error status's body is: an
      // error's message or extensions may echo the credentials sent.
      try JSONRPCCall.emit(answer.errors.isEmpty ? answer.document : mask.mask(answer.document), to: sink)
    } else if let data = answer.data {
      try JSONRPCCall.emit(data, to: sink)
    }
    if let failure = answer.failure(name: attempt.name, mask: { mask.mask($0) }) {
      if answer.data != nil, attempt.options.allowPartial {
        for error in answer.errors { try sink.receive(.note("GraphQL error: " + mask.mask(error.line))) }
      } else {
        throw AttemptFailure(failure)
      }
    }
    return CallOutcome(status: status, headers: headers)
  }
}

extension GraphQLCall {
  /// Whether the answer is `application/graphql-response+json`.
  static func isGraphQLResponse(_ headers: [HeaderField]) -> Bool {
    headers.contains {
      $0.name.lowercased() == "content-type"
        && $0.value.lowercased().split(separator: ";").first.map { $0.trimmingWhitespaceAndNewlines() }
          == "application/graphql-response+json"
    }
  }
}

/// A 2xx answer that is no GraphQL answer at all.
enum GraphQLAnswerError {
  static func notJSON(empty: Bool) -> APXError {
    APXError(
      .expectation, "the server's answer is not a GraphQL answer: " + (empty ? "the body is empty" : "it is not JSON"),
      hint: "check the URL: is it the GraphQL endpoint?")
  }
}
