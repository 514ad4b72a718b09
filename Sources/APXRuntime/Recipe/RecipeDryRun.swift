public import APXCore

/// `apx run --dry-run`: the requests a recipe would send, one JSON object per
/// step, with secrets masked — and nothing sent (auth tokens are not fetched
/// either: the auth scheme is named instead). Values that only a real run can
/// know (earlier steps' results, loop items) are shown as their `${...}` text.
public struct RecipeDryRun: Sendable {
  public let recipe: Recipe
  public let targets: [String: RecipeTarget]
  public let environment: [String: String]
  public let recipeDirectory: String?

  /// Makes a dry run.
  public init(recipe: Recipe, targets: [String: RecipeTarget], environment: [String: String], recipeDirectory: String?)
  {
    self.recipe = recipe
    self.targets = targets
    self.environment = environment
    self.recipeDirectory = recipeDirectory
  }

  /// One object per step: `{"step", "call", "method", "url", "headers", "body"}` (REST, SSE,
  /// JSON-RPC: the body is the JSON-RPC document, a batch step's with every call and `"batch"`
  /// naming the calls sent with the step's own) or `{"step", "call", "grpc", "message"}`.
  public func requests(inputs: JSONValue, runID: String, mask: SecretMask) throws(APXError) -> [JSONValue] {
    let env = environment
    let scope = RecipeScope(
      environment: { env[$0] }, inputs: inputs,
      run: .object([JSONMember("id", .string(runID)), JSONMember("recipe", .string(recipe.name))]))
    var out: [JSONValue] = []
    let placeholders = RecipeDryRunPlaceholders()
    for step in recipe.steps {
      guard let target = targets[step.api], let endpoint = target.api.endpoint(named: step.endpoint) else { continue }
      // A loop shows its first call: loop.number 1, and the first item when the list is known already.
      var stepScope = scope
      stepScope.loop = .object([
        JSONMember("index", .int(0)), JSONMember("number", .int(1)), JSONMember("previous", .null),
      ])
      if let loop = step.foreach {
        let first = (try? Template.renderStrings(in: loop.over, resolve: scope.resolve))?.arrayValue?.first
        if let first { stepScope.item = (loop.name, first) }
      }
      let known = stepScope
      let resolve: (TemplateReference) throws(APXError) -> JSONValue? = { ref throws(APXError) in
        if let value = try? known.resolve(ref) { return value }
        if ref.namespace == "env" || ref.namespace == "input" { return try known.resolve(ref) }
        return .string(placeholders.token(for: ref.description))  // known only when the recipe really runs
      }
      var members: [JSONMember] = [JSONMember("step", .string(step.id)), JSONMember("call", .string(step.call))]
      // The request shown is the first page's; later pages depend on the answers.
      if step.all { members.append(JSONMember("all", .bool(true))) }
      if let maxItems = step.maxItems { members.append(JSONMember("max_items", .int(maxItems))) }
      if let loop = step.foreach {
        members.append(JSONMember("foreach", try Template.renderStrings(in: loop.over, resolve: resolve)))
      }
      if let condition = step.condition {
        switch condition {
        case .truthy(let t): members.append(JSONMember("if", .string(t.text)))
        case .check(let c): members.append(JSONMember("if", .string(c.summary)))
        }
      }
      if !endpoint.kind.isHTTPRequest {
        let message = try renderValues(step, endpoint: endpoint, resolve: resolve).message
        members.append(
          JSONMember("grpc", .string((endpoint.grpc.map { "\($0.service)/\($0.method)" }) ?? endpoint.name)))
        members.append(JSONMember("url", .string(mask.mask(target.baseURL))))
        members.append(JSONMember("message", .object(message)))
        out.append(.object(members))
        continue
      }
      // A batch step sends its own call and every `batch` call in one request.
      var calls: [(step: RecipeStep, endpoint: Endpoint)] = [(step, endpoint)]
      for member in step.batch {
        guard let e = target.api.endpoint(named: member.endpoint) else { continue }
        calls.append((member, e))
      }
      var plans: [(plan: HTTPRequestPlan, call: RecipeStep, endpoint: Endpoint)] = []
      var given: [[JSONMember]] = []
      var unknown: APXError?
      for call in calls {
        let rendered = try renderValues(call.step, endpoint: call.endpoint, resolve: resolve)
        given.append(rendered.message.map { JSONMember($0.key, .string(mask.mask(Template.interpolated($0.value)))) })
        do {
          let plan = try RequestBuilder(api: target.api, endpoint: call.endpoint, baseURL: target.baseURL)
            .build(RequestBuilder.Input(values: rendered.values, data: rendered.data, headers: rendered.headers))
          plans.append((plan, call.step, call.endpoint))
        } catch {
          if unknown == nil { unknown = error }
        }
      }
      if calls.count > 1 {
        members.append(
          JSONMember(
            "batch",
            .array(
              zip(calls.dropFirst(), given.dropFirst()).map { call, with in
                .object([JSONMember("call", .string(call.step.call)), JSONMember("with", .object(with))])
              })))
      }
      guard var plan = plans.first?.plan, unknown == nil else {
        // Values that depend on earlier results cannot be checked yet: show them as given.
        members.append(JSONMember("with", .object(given.first ?? [])))
        members.append(JSONMember("note", .string(unknown?.message ?? "no request")))
        out.append(.object(members))
        continue
      }
      var planMask = mask
      for p in plans { for s in p.plan.secrets { planMask.add(s) } }
      if let document = try Self.jsonRPCDocument(plans.map { ($0.plan, $0.call, $0.endpoint) }, batch: calls.count > 1)
      {
        plan.body = .bytes(Array(document.compactJSON.utf8), contentType: "application/json")
      }
      plan.headers = try plan.headers.map { h throws(APXError) in
        HeaderField(
          h.name, try TemplateResolver.resolveText(h.value, environment: environment, mask: &planMask, secret: true))
      }
      members.append(JSONMember("method", .string(plan.method)))
      members.append(JSONMember("url", .string(planMask.mask(plan.url))))
      members.append(
        JSONMember("headers", .object(planMask.mask(plan.headers).map { JSONMember($0.name, .string($0.value)) })))
      members.append(JSONMember("body", Self.describe(plan.body, mask: planMask)))
      let auth = (endpoint.auth ?? target.api.auth)?.typeName ?? "none"
      if auth != "none" { members.append(JSONMember("auth", .string(auth))) }
      out.append(.object(members))
    }
    return out.map(placeholders.restore)
  }

  /// A call's values rendered as far as they are known: the parameter
  /// values, the message as given (for display), the body and the headers.
  func renderValues(
    _ call: RecipeStep, endpoint: Endpoint, resolve: (TemplateReference) throws(APXError) -> JSONValue?
  ) throws(APXError) -> (
    values: [(name: String, value: BoundValue)], message: [JSONMember], data: RequestBuilder.DataBody?,
    headers: [HeaderField]
  ) {
    var values: [(name: String, value: BoundValue)] = []
    var message: [JSONMember] = []
    for member in call.with {
      let rendered = try Template.renderStrings(in: member.value, resolve: resolve)
      if rendered == .null { continue }
      message.append(JSONMember(member.key, rendered))
      if let param = endpoint.param(named: member.key), param.type == .file, case .string(let path) = rendered {
        values.append((member.key, .file(path: RecipePaths.resolve(path, recipeDirectory: recipeDirectory))))
      } else {
        values.append((member.key, .json(rendered)))
      }
    }
    var headers: [HeaderField] = []
    for member in call.headers {
      headers.append(
        HeaderField(member.key, Template.interpolated(try Template.renderStrings(in: member.value, resolve: resolve))))
    }
    var data: RequestBuilder.DataBody?
    if let body = call.body {
      data = .json(Array(try Template.renderStrings(in: body, resolve: resolve).compactJSON.utf8))
    }
    return (values, message, data, headers)
  }

  /// The JSON-RPC document the calls send (one request object, or the batch's
  /// array), built from each call's body as the JSON-RPC transport builds it;
  /// nil when the endpoints are not JSON-RPC.
  static func jsonRPCDocument(_ calls: [(HTTPRequestPlan, RecipeStep, Endpoint)], batch: Bool) throws(APXError)
    -> JSONValue?
  {
    var requests: [JSONValue] = []
    for (index, (plan, call, endpoint)) in calls.enumerated() {
      guard let options = endpoint.jsonrpc else { return nil }
      var body: JSONValue?
      if case .bytes(let bytes, _) = plan.body { body = try? JSONParser.parse(bytes) }
      requests.append(
        try JSONRPCMessage.request(
          for: endpoint, options: options, body: body, explicit: call.body != nil, index: index))
    }
    return batch ? .array(requests) : requests.first
  }

  /// `masking`: credential members of JSON bodies and credential-named multipart fields are
  /// `***` by their names too (off for `--show-secrets`).
  static func describe(_ body: RequestBody, mask: SecretMask, masking: Bool = true) -> JSONValue {
    switch body {
    case .none: return .null
    case .bytes(let bytes, let type):
      let text = mask.mask(String(decoding: bytes, as: UTF8.self))
      if let json = try? JSONParser.parse(text) { return masking ? CredentialMembers.masked(json) : json }
      return .object([JSONMember("content_type", .string(type)), JSONMember("text", .string(text))])
    case .file(let path, let type):
      return .object([JSONMember("file", .string(path)), JSONMember("content_type", .string(type))])
    case .stdin(let type):
      return .object([JSONMember("stdin", .bool(true)), JSONMember("content_type", .string(type))])
    case .multipart(let parts, _):
      return .object([
        JSONMember(
          "multipart",
          .array(
            parts.map { part in
              switch part {
              case .field(let name, let value, let type):
                return .object(
                  [
                    JSONMember("name", .string(name)),
                    JSONMember(
                      "value", .string(masking && CredentialParams.isCredential(name) ? "***" : mask.mask(value))),
                  ]
                    + (type.map { [JSONMember("content_type", .string($0))] } ?? []))
              case .file(let name, let path, _, let type):
                return .object([
                  JSONMember("name", .string(name)), JSONMember("file", .string(path)),
                  JSONMember("content_type", .string(type)),
                ])
              }
            }))
      ])
    }
  }
}
