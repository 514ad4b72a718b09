import APXCore

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

  /// One object per step: `{"step", "call", "method", "url", "headers", "body"}` (REST, SSE) or
  /// `{"step", "call", "grpc", "message"}`.
  public func requests(inputs: JSONValue, runID: String, mask: SecretMask) throws(APXError) -> [JSONValue] {
    let env = environment
    let scope = RecipeScope(
      environment: { env[$0] }, inputs: inputs,
      run: .object([JSONMember("id", .string(runID)), JSONMember("recipe", .string(recipe.name))]))
    var out: [JSONValue] = []
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
        return .string(ref.description)  // known only when the recipe really runs
      }
      var members: [JSONMember] = [JSONMember("step", .string(step.id)), JSONMember("call", .string(step.call))]
      if let loop = step.foreach {
        members.append(JSONMember("foreach", try Template.renderStrings(in: loop.over, resolve: resolve)))
      }
      if let condition = step.condition {
        switch condition {
        case .truthy(let t): members.append(JSONMember("if", .string(t.text)))
        case .check(let c): members.append(JSONMember("if", .string(c.summary)))
        }
      }
      var values: [(name: String, value: BoundValue)] = []
      var message: [JSONMember] = []
      for member in step.with {
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
      for member in step.headers {
        headers.append(
          HeaderField(member.key, Template.interpolated(try Template.renderStrings(in: member.value, resolve: resolve)))
        )
      }
      if !endpoint.kind.isHTTPRequest {
        members.append(
          JSONMember("grpc", .string((endpoint.grpc.map { "\($0.service)/\($0.method)" }) ?? endpoint.name)))
        members.append(JSONMember("url", .string(mask.mask(target.baseURL))))
        members.append(JSONMember("message", .object(message)))
      } else {
        var data: RequestBuilder.DataBody?
        if let body = step.body {
          data = .json(Array(try Template.renderStrings(in: body, resolve: resolve).compactJSON.utf8))
        }
        var plan: HTTPRequestPlan
        do {
          plan = try RequestBuilder(api: target.api, endpoint: endpoint, baseURL: target.baseURL)
            .build(RequestBuilder.Input(values: values, data: data, headers: headers))
        } catch {
          // Values that depend on earlier results cannot be checked yet: show them as given.
          members.append(
            JSONMember(
              "with", .object(message.map { JSONMember($0.key, .string(mask.mask(Template.interpolated($0.value)))) })))
          members.append(JSONMember("note", .string(error.message)))
          out.append(.object(members))
          continue
        }
        var planMask = mask
        for s in plan.secrets { planMask.add(s) }
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
      }
      out.append(.object(members))
    }
    return out
  }

  static func describe(_ body: RequestBody, mask: SecretMask) -> JSONValue {
    switch body {
    case .none: return .null
    case .bytes(let bytes, let type):
      let text = mask.mask(String(decoding: bytes, as: UTF8.self))
      if let json = try? JSONParser.parse(text) { return json }
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
              case .field(let name, let value):
                return .object([JSONMember("name", .string(name)), JSONMember("value", .string(mask.mask(value)))])
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
