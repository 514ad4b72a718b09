import APXCore
import Synchronization

/// Answers the requests of one API: introspection, faults, auth, validation, then the
/// endpoint's answer (stateful, declared, or generated from its schema). No sockets here:
/// `MockServer` carries requests in and answers out.
final class MockAPI: Sendable {
  let api: APIDefinition
  let options: MockOptions
  let routes: RouteTable
  let log = RequestLog()
  let store = CollectionStore()
  let resume = WebSocketResumePoints()
  /// The tokens this run issued (shared by every API of the run).
  let tokens: MockTokens
  /// The token endpoints of the API's OAuth2 auths, by path.
  let tokenEndpoints: [(path: String, config: OAuth2Config)]
  /// The login endpoints of the API's user logins, and the codes they issued.
  let loginEndpoints: [LoginEndpoints]
  let logins = MockLogins()
  let book: SchemaBook
  /// The most the start-up scan builds of one answer.
  static let scanBudget = 64 << 10
  /// Misfit examples named one per line at start; the rest are counted.
  static let misfitLines = 10
  /// See `match(_:)`.
  let basePaths: [String]
  /// Where faults are reported (the command's stderr).
  let report: @Sendable (String) -> Void
  /// The start-up scan for answers that cannot be generated (`ungenerable()`), which runs beside
  /// the serving; an answer waits for it, so its notes always come before the first answer.
  private let scan = Mutex<Task<Void, Never>?>(nil)

  init(
    api: APIDefinition, options: MockOptions, tokens: MockTokens = MockTokens(),
    report: @escaping @Sendable (String) -> Void
  ) {
    self.api = api
    self.options = options
    self.tokens = tokens
    self.tokenEndpoints = Self.tokenEndpoints(api)
    self.loginEndpoints = LoginEndpoints.of(api)
    for login in loginEndpoints where !login.unserved.isEmpty {
      report(
        "apx mock: note: \(api.name)'s \(login.config.grant.typeName) login names no "
          + login.unserved.joined(separator: " or ")
          + " (its issuer's discovery does): the mock serves no login for it; give them to log in against the mock")
    }
    self.routes = RouteTable(endpoints: api.endpoints)
    self.book = SchemaBook(api.schemas)
    self.basePaths = Self.basePaths(api)
    let misfits = Self.misfits(api, book)
    for (endpoint, response, name, problem) in misfits.prefix(Self.misfitLines) {
      report(
        "apx mock: note: example \"\(name)\" of \(api.name).\(endpoint) (\(response)) does not fit its schema "
          + "(\(problem.field.isEmpty ? "the body" : problem.field) \(problem.message)): it is served only on "
          + "`Prefer: example=\(name)`")
    }
    if misfits.count > Self.misfitLines {
      report(
        "apx mock: note: and \(misfits.count - Self.misfitLines) more examples of \(api.name) that do not fit their schemas"
      )
    }
    self.report = report
    // Building every answer once doubled the start of a mock of GitHub's 874 operations: it runs
    // beside the serving instead, and its notes follow the address line.
    let api = self
    let task = Task.detached(priority: .utility) {
      let ungenerable = api.ungenerable()
      for (endpoint, status, why) in ungenerable.prefix(Self.misfitLines) {
        report(
          "apx mock: note: the answer of \(api.api.name).\(endpoint) (\(status)) cannot be generated: \(why); "
            + "it is a 500 until that schema has an example")
      }
      if ungenerable.count > Self.misfitLines {
        report(
          "apx mock: note: and \(ungenerable.count - Self.misfitLines) more answers of \(api.api.name) that cannot be generated"
        )
      }
    }
    scan.withLock { $0 = task }
  }

  /// The declared JSON answers with no fitting example that the generator cannot build (a
  /// pattern beyond it, minimums past `--max-generated-size`), found at start by building each
  /// once, so that a description's author hears of them before a client does.
  func ungenerable() -> [(endpoint: String, status: String, why: String)] {
    var out: [(String, String, String)] = []
    for endpoint in api.endpoints where endpoint.kind == .rest {
      for response in endpoint.responses {
        guard let schema = response.schema, BodyRendering.isJSON(response.contentType ?? ""),
          fittingExample(response) == nil
        else { continue }
        // A small budget: a schema that asks for a large answer is found out by its request
        // (a 500 naming the limit); the scan must not build it once more for every API's start.
        let budget = min(options.maxGeneratedSize, Self.scanBudget)
        var generator = ValueGenerator(
          random: SeededRandom(seed: options.seed, key: "start " + endpoint.name), book: book, budget: budget)
        _ = generator.value(for: schema)
        if let pattern = generator.unmetPatterns.first {
          out.append((endpoint.name, response.status, "no string can be drawn for the pattern \(pattern)"))
        } else if generator.overBudget, budget == options.maxGeneratedSize {
          out.append(
            (
              endpoint.name, response.status,
              "it would be larger than \(options.maxGeneratedSize) bytes (--max-generated-size)"
            ))
        }
      }
    }
    return out
  }

  /// The answer, after any delay a fault asks for; every request but introspection is logged.
  func handle(_ request: MockRequest) async -> MockAnswer {
    await scan.withLock({ $0 })?.value
    if request.path == "/__apx/requests", request.method == "GET" { return .json(200, .array(log.all)) }
    if request.path == "/__apx/reset", request.method == "POST" {
      log.reset()
      store.reset()
      resume.reset()
      return MockAnswer(status: 204)
    }
    var endpointName: String?
    var faultText: String?
    let answer = await answer(request, endpointName: &endpointName, fault: &faultText)
    log.append(request.logEntry(endpoint: endpointName, status: answer.status, fault: faultText))
    return answer
  }

  private func answer(_ request: MockRequest, endpointName: inout String?, fault: inout String?) async -> MockAnswer {
    let number = log.nextNumber()
    var faults = options.faults
    if let header = request.header("x-apx-mock-fault") {
      do throws(MockFaults.SyntaxError) {
        faults = try faults.applying(header: header)
      } catch {
        return .problem(
          400, title: "Bad Request", detail: "X-Apx-Mock-Fault: \(error.message)", field: "X-Apx-Mock-Fault")
      }
    }
    let (delay, failStatus) = faults.draw(seed: options.seed, number: number)
    if delay > 0 {
      fault = "latency \(delay) ms"
      note("latency \(delay) ms", request)
      try? await Task.sleep(for: .milliseconds(delay))
    }
    if let failStatus {
      fault = "fail \(failStatus)"
      note("failed with \(failStatus)", request)
      var answer = MockAnswer.problem(
        failStatus, title: "Injected Fault", detail: "apx mock failed this request on purpose")
      answer.headers.append(("retry-after", String(faults.retryAfter)))
      return answer
    }
    for login in loginEndpoints {
      for served in [login.authorize, login.token, login.device, login.revoke].compactMap({ $0 })
      where request.path == served || basePaths.contains(where: { request.path == $0 + served }) {
        guard
          let answer = login.answer(
            request, at: served, logins: logins, tokens: tokens,
            lifetime: faults.tokenLifetime ?? options.tokenLifetime,
            sharedTokenPath: tokenEndpoint(request.path) != nil)
        else { continue }
        endpointName = Self.tokenEndpointName
        return answer
      }
    }
    if request.method == "POST", let config = tokenEndpoint(request.path) {
      endpointName = Self.tokenEndpointName
      return TokenEndpoint.answer(
        request, config: config, tokens: tokens, lifetime: faults.tokenLifetime ?? options.tokenLifetime)
    }
    switch match(request) {
    case .notFound:
      return .problem(404, title: "Not Found", detail: "no endpoint of \(api.name) serves \(request.path)")
    case .methodNotAllowed(let allowed):
      var answer = MockAnswer.problem(
        405, title: "Method Not Allowed", detail: "\(request.path) answers \(allowed.joined(separator: ", "))")
      answer.headers.append(("allow", allowed.joined(separator: ", ")))
      return answer
    case .found(let route, let pathValues):
      endpointName = route.endpoint.name
      if let expired = expiredToken(request, route.endpoint) {
        fault = "token expired"
        note("token expired", request)
        return expired
      }
      return endpointAnswer(
        request, route: route, pathValues: pathValues, dropEvery: faults.dropEvery, dropMode: faults.dropMode)
    }
  }

  private func endpointAnswer(
    _ request: MockRequest, route: RouteTable.Route, pathValues: [String: String], dropEvery: Int,
    dropMode: DropMode
  ) -> MockAnswer {
    let endpoint = route.endpoint
    if let missing = AuthCheck.missing(endpoint.auth ?? api.auth, in: request) {
      var answer = MockAnswer.problem(401, title: "Unauthorized", detail: "this endpoint needs \(missing)")
      answer.headers.append(("www-authenticate", "Bearer"))
      return answer
    }
    if endpoint.kind == .websocket {
      var answer = MockAnswer.problem(
        426, title: "Upgrade Required", detail: "\(api.name).\(endpoint.name) speaks WebSocket: connect with ws://")
      answer.headers.append(("upgrade", "websocket"))
      return answer
    }
    var generator = ValueGenerator(
      random: SeededRandom(seed: options.seed, key: request.method + " " + request.path), book: book,
      budget: options.maxGeneratedSize)
    if endpoint.kind == .jsonrpc {
      let siblings = routes.routes.map(\.endpoint).filter { $0.kind == .jsonrpc && $0.path == endpoint.path }
      let answer = JSONRPCAnswer(endpoints: siblings).answer(request, generator: &generator)
      return generator.overBudget ? tooLarge(endpoint) : answer
    }
    if endpoint.kind == .graphql {
      return GraphQLExampleAnswer(endpoints: graphQLSiblings(of: endpoint), apiName: api.name).answer(request)
    }
    if let problem = RequestValidator(endpoint: endpoint, book: book).problem(request, pathValues: pathValues) {
      let status = endpoint.responses.contains { $0.status == "422" } ? 422 : 400
      return .problem(
        status, title: status == 422 ? "Unprocessable Content" : "Bad Request",
        detail: "\(problem.field) \(problem.message)", field: problem.field)
    }
    if options.stateful, let answer = store.answer(request, route: route, pathValues: pathValues) { return answer }
    var picked: ResponseChoice.Picked
    do throws(ResponseChoice.Unmet) {
      picked = try ResponseChoice.pick(
        endpoint.responses, preference: .init(header: request.header("prefer")), method: request.method,
        expected: endpoint.expectStatus ?? [])
    } catch {
      return .problem(422, title: "Unprocessable Content", detail: error.detail, field: "Prefer")
    }
    if endpoint.kind == .sse || picked.response?.contentType?.lowercased().hasPrefix("text/event-stream") == true {
      let after = request.header("last-event-id").flatMap { Int($0.trimmingWhitespace) } ?? 0
      let events = EventStreamPlan.events(
        for: endpoint, response: picked.response, example: picked.example, count: options.sseEvents,
        generator: &generator)
      if generator.overBudget { return tooLarge(endpoint) }
      return MockAnswer(
        status: picked.status, headers: [("content-type", "text/event-stream"), ("cache-control", "no-cache")],
        body: .events(events.filter { $0.id > after }, dropEvery: dropEvery, mode: dropMode))
    }
    if request.method == "HEAD" { return MockAnswer(status: picked.status) }
    if picked.namedExample == nil { picked.example = fittingExample(picked.response) }
    // An answer declared without schema or example, or none declared: `{}`, as JSON allows.
    let value = picked.example ?? picked.response?.schema.map { generator.value(for: $0) } ?? .object([])
    if generator.overBudget { return tooLarge(endpoint) }
    if let pattern = generator.unmetPatterns.first {
      // Never an answer its own schema refuses: the description must give an example instead.
      return .problem(
        500, title: "Cannot Generate",
        detail:
          "apx mock cannot draw a string for the pattern \(pattern) in the answer of \(api.name).\(endpoint.name) "
          + "(look-around and back-references are beyond it, or the length bounds exclude it); "
          + "give that schema an example")
    }
    return BodyRendering.answer(
      status: picked.status, value: value,
      contentType: picked.response?.contentType ?? (picked.response == nil ? "application/json" : nil))
  }

  /// The API's GraphQL endpoints at `endpoint`'s path: one path serves them all, told apart by
  /// the operation a request runs.
  func graphQLSiblings(of endpoint: Endpoint) -> [Endpoint] {
    routes.routes.map(\.endpoint).filter { $0.kind == .graphql && $0.path == endpoint.path }
  }

  /// The route of `request`; a path under an environment's base path (`/v1/pets` for a base URL
  /// `https://api.example.com/v1`) is matched without it, so a client may keep that prefix.
  func match(_ request: MockRequest) -> RouteTable.Match {
    let direct = routes.match(method: request.method, path: request.path)
    guard case .notFound = direct else { return direct }
    for prefix in basePaths where request.path.hasPrefix(prefix + "/") {
      let inner = routes.match(method: request.method, path: String(request.path.dropFirst(prefix.count)))
      if case .notFound = inner { continue }
      return inner
    }
    return direct
  }

  /// The paths of the environments' http(s) base URLs (`/v1`), longest first.
  static func basePaths(_ api: APIDefinition) -> [String] {
    var out: [String] = []
    for env in api.environments {
      let url = env.baseURL
      guard url.hasPrefix("http://") || url.hasPrefix("https://") else { continue }
      let rest = url.drop { $0 != ":" }.dropFirst(3)
      guard let slash = rest.firstIndex(of: "/") else { continue }
      var path = String(rest[slash...])
      while path.hasSuffix("/") { path.removeLast() }
      if !path.isEmpty, !path.contains("${"), !out.contains(path) { out.append(path) }
    }
    return out.sorted { $0.count > $1.count }
  }

  /// Declared examples their own schema refuses (descriptions hold some): by default the mock
  /// serves a generated value instead, so that no answer contradicts the description.
  static func misfits(_ api: APIDefinition, _ book: SchemaBook)
    -> [(endpoint: String, status: String, example: String, problem: SchemaValidator.Problem)]
  {
    var out: [(String, String, String, SchemaValidator.Problem)] = []
    for endpoint in api.endpoints where endpoint.kind != .sse {
      for response in endpoint.responses {
        guard let schema = response.schema, BodyRendering.isJSON(response.contentType ?? "") else { continue }
        for example in response.examples {
          if let problem = SchemaValidator.problem(example.value, schema, book, at: "") {
            out.append((endpoint.name, response.status, example.key, problem))
          }
        }
      }
    }
    return out
  }

  /// The first example of `response` that fits its schema (any, without a schema).
  func fittingExample(_ response: EndpointResponse?) -> JSONValue? {
    guard let response else { return nil }
    guard let schema = response.schema, BodyRendering.isJSON(response.contentType ?? "") else {
      return response.examples.first?.value
    }
    return response.examples.first { SchemaValidator.problem($0.value, schema, book, at: "") == nil }?.value
  }

  /// The 500 for an answer whose schema asks for more than `--max-generated-size`: a value cut
  /// short would be one its schema refuses.
  func tooLarge(_ endpoint: Endpoint) -> MockAnswer {
    .problem(
      500, title: "Cannot Generate",
      detail:
        "the answer of \(api.name).\(endpoint.name) would be larger than \(options.maxGeneratedSize) bytes "
        + "(its schema's minItems, minLength or minProperties ask for more); "
        + "raise --max-generated-size, or give that schema an example")
  }

  /// What `GET /__apx/requests` names a token request's endpoint.
  static let tokenEndpointName = "oauth2 token endpoint"

  /// The OAuth2 settings of the token endpoint at `path` (with or without an environment's base path).
  func tokenEndpoint(_ path: String) -> OAuth2Config? {
    tokenEndpoints.first { endpoint in
      path == endpoint.path || basePaths.contains { path == $0 + endpoint.path }
    }?.config
  }

  /// The token endpoints of the API's and its endpoints' OAuth2 auths, by path.
  static func tokenEndpoints(_ api: APIDefinition) -> [(path: String, config: OAuth2Config)] {
    var out: [(path: String, config: OAuth2Config)] = []
    for auth in [api.auth] + api.endpoints.map(\.auth) {
      guard let config = TokenEndpoint.config(auth), let path = TokenEndpoint.path(of: config.tokenURL),
        !out.contains(where: { $0.path == path })
      else { continue }
      out.append((path, config))
    }
    return out
  }

  /// The 401 for a bearer token this mock issued whose lifetime has passed; nil otherwise.
  func expiredToken(_ request: MockRequest, _ endpoint: Endpoint) -> MockAnswer? {
    let auth = endpoint.auth ?? api.auth
    switch auth {
    case .bearer?, .oauth2ClientCredentials?, .oauth2Login?, .tokenCommand?, .subprotocol?: break
    default: return nil
    }
    guard let token = TokenEndpoint.bearer(request, subprotocolPrefix: auth?.subprotocolPrefix),
      tokens.hasExpired(token)
    else { return nil }
    var answer = MockAnswer.problem(
      401, title: "Unauthorized", detail: "the access token expired; get a new one from the token endpoint")
    answer.headers.append(("www-authenticate", #"Bearer error="invalid_token", error_description="the token expired""#))
    return answer
  }

  private func note(_ what: String, _ request: MockRequest) {
    report("apx mock: fault: \(what): \(request.method) \(request.path)")
  }
}
