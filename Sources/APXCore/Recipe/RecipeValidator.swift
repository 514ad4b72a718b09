/// The registry as a recipe check sees it: the APIs that loaded, and the
/// names of every API known (for "did you mean").
public struct RecipeRegistry: Sendable {
  /// Loaded APIs by name.
  public var apis: [String: APIDefinition]
  /// Every API name in the registry folders.
  public var known: [String]
  /// APIs whose file exists but failed to load, with why.
  public var failures: [String: APXError]

  /// Makes a registry view.
  public init(apis: [String: APIDefinition], known: [String], failures: [String: APXError] = [:]) {
    self.apis = apis
    self.known = known
    self.failures = failures
  }
}

/// Checks a loaded recipe against the registry before anything is sent:
/// every endpoint exists, every required parameter is bound, every parameter
/// named exists, every reference points to an input, an earlier step or a
/// loop variable in scope, and literal values and inputs fit the parameter
/// types. Every problem is reported with file:line:column and JSON path.
public struct RecipeValidator {
  public let recipe: Recipe
  public let registry: RecipeRegistry
  /// The parsed file, for locations (nil: locations of steps only).
  public let document: JSONDocument?
  private var errors: [APXError] = []

  /// Namespaces every template may use besides `input`, `steps` and `env`.
  public static let runNamespace = "run"
  /// Loop variables: `${loop.index}` (from 0), `${loop.number}` (from 1), `${loop.previous}`.
  public static let loopNamespace = "loop"

  /// Makes a validator.
  public init(recipe: Recipe, registry: RecipeRegistry, document: JSONDocument?) {
    self.recipe = recipe
    self.registry = registry
    self.document = document
  }

  /// Every problem found; empty when the recipe can run.
  public static func validate(_ recipe: Recipe, registry: RecipeRegistry, document: JSONDocument?) -> [APXError] {
    var v = RecipeValidator(recipe: recipe, registry: registry, document: document)
    v.run()
    return v.errors
  }

  /// The endpoint a step calls, when it exists.
  public static func target(of step: RecipeStep, in registry: RecipeRegistry) -> (APIDefinition, Endpoint)? {
    guard let api = registry.apis[step.api], let endpoint = api.endpoint(named: step.endpoint) else { return nil }
    return (api, endpoint)
  }

  private mutating func run() {
    var shapes: [String: EndpointResultShape] = [:]
    for step in recipe.steps {
      let endpoint = checkTarget(step)
      if let endpoint {
        shapes[step.id] = step.resultShape(of: endpoint)
        checkParams(step, endpoint)
        checkStreamOptions(step, endpoint)
        if !step.batch.isEmpty { checkBatch(step, endpoint) }
      }
      checkReferences(step, shapes: shapes)
      for member in step.batch { checkReferences(member, shapes: shapes) }
    }
    if let output = recipe.output {
      checkTemplates(
        in: output, at: [.key("output")], stepIndex: recipe.steps.count, shapes: shapes, loopName: nil,
        hasLoop: false)
    }
    for input in recipe.inputs {
      if let d = input.defaultValue { checkDefault(d, of: input.name) }
    }
  }

  /// Defaults are bound before any step runs, from the environment and the run
  /// alone: `${input...}` (itself or another input) and `${steps...}` cannot work there.
  private mutating func checkDefault(_ value: JSONValue, of name: String) {
    let p: [JSONPathComponent] = [.key("inputs"), .key(name), .key("default")]
    guard let found = try? Template.references(in: value) else { return }  // syntax errors come from the loader
    let misplaced = found.filter { $0.reference.namespace != "env" && $0.reference.namespace != "run" }
    for (_, ref) in misplaced {
      let what = ref.namespace == "input" && ref.firstKey == name ? "refers to itself" : "uses \(ref)"
      fail(p, "the default of input \"\(name)\" \(what)", hint: "a default may use only ${env:NAME} and ${run.id}")
    }
    if misplaced.isEmpty {
      checkTemplates(in: value, at: p, stepIndex: -1, shapes: [:], loopName: nil, hasLoop: false)
    }
  }

  private mutating func fail(
    _ path: [JSONPathComponent], _ message: String, hint: String? = nil, fallback: SourceLocation? = nil
  ) {
    var location = document?.location(of: path)
    if location == nil {
      // Fall back to the nearest enclosing element that has a location.
      var p = path
      while location == nil, !p.isEmpty {
        p.removeLast()
        location = document?.location(of: p)
      }
    }
    errors.append(
      APXError(
        .invalidDefinition, message, hint: hint, file: recipe.file, location: location ?? fallback, path: path.rendered)
    )
  }

  private mutating func checkTarget(_ step: RecipeStep) -> Endpoint? {
    let p = step.documentPath + [.key("call")]
    guard !step.endpoint.isEmpty else { return nil }  // the loader already reported it
    guard let api = registry.apis[step.api] else {
      if let failure = registry.failures[step.api] {
        fail(
          p, "the API \"\(step.api)\" cannot be loaded: \(failure.message)",
          hint: "run `apx validate` on its registry file")
      } else {
        fail(
          p, "no API named \"\(step.api)\" in the registry",
          hint: Suggestions.hint(for: step.api, in: registry.known)
            ?? (registry.known.isEmpty
              ? "pass --registry DIR" : "known APIs: \(Suggestions.list(registry.known))"))
      }
      return nil
    }
    guard let endpoint = api.endpoint(named: step.endpoint) else {
      let names = api.endpoints.map { "\(api.name).\($0.name)" }
      fail(
        p, "the API \"\(api.name)\" has no endpoint \"\(step.endpoint)\"",
        hint: Suggestions.hint(for: step.call, in: names) ?? "its endpoints: \(Suggestions.list(names))")
      return nil
    }
    return endpoint
  }

  /// A batch step and each of its calls are JSON-RPC endpoints of one API, each binding its parameters.
  private mutating func checkBatch(_ step: RecipeStep, _ endpoint: Endpoint) {
    guard endpoint.kind.batches else {
      fail(
        step.documentPath + [.key("batch")],
        "only JSON-RPC calls can be batched, but \(step.call) is \(endpoint.kind.rawValue)",
        hint: "remove \"batch\", or call JSON-RPC endpoints")
      return
    }
    for member in step.batch {
      guard let target = checkTarget(member) else { continue }
      if target.kind != endpoint.kind || member.api != step.api {
        fail(
          member.documentPath + [.key("call")],
          "a batch holds JSON-RPC calls of one API (\(step.api)), but \(member.call) is "
            + (target.kind != endpoint.kind ? target.kind.rawValue : "of the API \(member.api)"),
          hint: "move it to a step of its own")
        continue
      }
      checkParams(member, target)
    }
  }

  private mutating func checkParams(_ step: RecipeStep, _ endpoint: Endpoint) {
    let p = step.documentPath + [.key("with")]
    let open = endpoint.kind.fieldsFromSchema && endpoint.params.isEmpty
    for member in step.with {
      guard let param = endpoint.param(named: member.key) else {
        if open { continue }
        let names = endpoint.params.map(\.name)
        fail(
          p + [.key(member.key)], "\(step.call) has no parameter \"\(member.key)\"",
          hint: Suggestions.hint(for: member.key, in: names)
            ?? (names.isEmpty ? "it takes no parameters" : "its parameters: \(names.joined(separator: ", "))"))
        continue
      }
      checkType(member.value, param: param, at: p + [.key(member.key)], step: step)
    }
    let hasBody = step.body != nil
    for param in endpoint.requiredParams where !step.with.contains(where: { $0.key == param.name }) {
      if hasBody && [.body, .message, .form, .multipart].contains(param.location) { continue }
      fail(
        step.documentPath, "step \"\(step.id)\" does not bind the required parameter \"\(param.name)\" of \(step.call)",
        hint: "add \"with\": {\"\(param.name)\": ...}" + (param.description.map { " (\($0))" } ?? ""))
    }
  }

  /// Literal values must coerce to the parameter's type; single references to inputs must have a fitting type.
  private mutating func checkType(_ value: JSONValue, param: Param, at p: [JSONPathComponent], step: RecipeStep) {
    if case .string(let s) = value, Template.mayContainReferences(s) {
      guard let template = try? Template(parsing: s), template.isSingleReference,
        let ref = template.references.first, ref.namespace == "input", ref.path.steps.count == 1,
        let name = ref.firstKey, let input = recipe.input(named: name)
      else {
        if param.type == .file, let template = try? Template(parsing: s), !template.isSingleReference {
          // Text around a reference still names a path, e.g. "${input.dir}/books.csv": fine.
          return
        }
        return
      }
      if !Self.fits(input: input.type, param: param.type) {
        fail(
          p,
          "the input \"\(name)\" is a \(input.type.rawValue), but \(param.name) of \(step.call) takes \(ParamCoercionNames.name(param.type))",
          hint: param.type == .file
            ? "declare the input with \"type\": \"file\"" : "change the input's type or pass a literal value")
      }
      return
    }
    if param.type == .file {
      guard case .string = value else {
        fail(
          p, "\(param.name) of \(step.call) takes a file path, got \(value.typeName)",
          hint: "e.g. \"${input.csv}\" or \"data/books.csv\"")
        return
      }
      return
    }
    // Literal values: arrays and objects may hold templates, so only scalars are coerced here.
    switch value {
    case .array, .object:
      if ![.json, .array].contains(param.type) {
        fail(p, "\(param.name) of \(step.call) takes \(ParamCoercionNames.name(param.type)), got \(value.typeName)")
      }
    default:
      do {
        _ = try ParamCoercion.coerce(value, to: param)
      } catch {
        fail(p, error.message, hint: error.hint)
      }
    }
  }

  static func fits(input: RecipeInputType, param: ParamType) -> Bool {
    switch (input, param) {
    case (.file, .file), (.string, .file): return true
    case (.file, _): return param == .string
    case (_, .file): return false
    case (.json, _), (_, .json), (_, .string): return true
    case (.number, .number), (.number, .integer): return true
    case (.boolean, .boolean): return true
    case (.string, _): return true  // coerced at run time, with a clear error if the text does not fit
    default: return false
    }
  }

  private mutating func checkStreamOptions(_ step: RecipeStep, _ endpoint: Endpoint) {
    if step.all {
      if endpoint.pagesToFollow == nil {
        fail(
          step.documentPath + [.key("all")],
          "\"all\" follows pages, and \(step.call) is \(endpoint.kind.withArticle) endpoint that declares none",
          hint: "declare a \"pagination\" block for it in the registry, or drop \"all\"")
      }
      for key in ["max_events", "batch"] where key == "batch" ? !step.batch.isEmpty : step.maxEvents != nil {
        fail(
          step.documentPath + [.key(key)], "\(key) cannot go with \"all\"",
          hint: key == "batch" ? "page through one call per step" : "stop after N items with \"max_items\"")
      }
      return
    }
    if step.maxEvents != nil, !endpoint.resultShape.stream {
      fail(
        step.documentPath + [.key("max_events")],
        "max_events applies to streams, but \(step.call) is a \(endpoint.kind.rawValue) call")
    }
    if step.until != nil, step.foreach != nil, !endpoint.resultShape.stream {
      fail(
        step.documentPath + [.key("until")], "a foreach step cannot also repeat its call with until",
        hint: "split it into two steps")
    }
  }

  private mutating func checkReferences(_ step: RecipeStep, shapes: [String: EndpointResultShape]) {
    let p = step.documentPath
    let loopName = step.foreach?.name
    let hasLoop = step.foreach != nil || (step.until != nil && !Self.isStream(shapes[step.id]))
    if let over = step.foreach?.over {
      checkTemplates(
        in: over, at: p + [.key("foreach"), .key("over")], stepIndex: step.index, shapes: shapes, loopName: nil,
        hasLoop: false)
    }
    // A foreach step's `if` is evaluated per item, so it may read the item and `${loop.index}`;
    // any other step's `if` is evaluated once, before the step, where no loop variable exists.
    checkCondition(
      step.condition, at: p + [.key("if")], step: step, shapes: shapes, loopName: loopName,
      hasLoop: step.foreach != nil)
    checkTemplates(
      in: .object(step.with), at: p + [.key("with")], stepIndex: step.index, shapes: shapes, loopName: loopName,
      hasLoop: hasLoop)
    checkTemplates(
      in: .object(step.headers), at: p + [.key("headers")], stepIndex: step.index, shapes: shapes,
      loopName: loopName, hasLoop: hasLoop)
    if let body = step.body {
      checkTemplates(
        in: body, at: p + [.key("body")], stepIndex: step.index, shapes: shapes, loopName: loopName,
        hasLoop: hasLoop)
    }
    checkCondition(
      step.until, at: p + [.key("until")], step: step, shapes: shapes, loopName: loopName, hasLoop: hasLoop)
    for (i, check) in (step.expect?.checks ?? []).enumerated() {
      checkCheck(
        check, at: p + [.key("expect"), .key("checks"), .index(i)], step: step, shapes: shapes,
        loopName: loopName, hasLoop: hasLoop)
    }
  }

  private mutating func checkCondition(
    _ condition: RecipeCondition?, at p: [JSONPathComponent], step: RecipeStep, shapes: [String: EndpointResultShape],
    loopName: String?, hasLoop: Bool
  ) {
    switch condition {
    case .truthy(let t):
      checkTemplates(
        in: .string(t.text), at: p, stepIndex: step.index, shapes: shapes, loopName: loopName, hasLoop: hasLoop)
    case .check(let c):
      checkCheck(c, at: p, step: step, shapes: shapes, loopName: loopName, hasLoop: hasLoop)
    case nil:
      return
    }
  }

  private mutating func checkCheck(
    _ check: RecipeCheck, at p: [JSONPathComponent], step: RecipeStep, shapes: [String: EndpointResultShape],
    loopName: String?,
    hasLoop: Bool
  ) {
    if case .template(let t) = check.subject {
      checkTemplates(
        in: .string(t.text), at: p, stepIndex: step.index, shapes: shapes, loopName: loopName, hasLoop: hasLoop)
    }
    for value in check.templatedValues {
      checkTemplates(
        in: value, at: p, stepIndex: step.index, shapes: shapes, loopName: loopName, hasLoop: hasLoop)
    }
  }

  static func isStream(_ shape: EndpointResultShape?) -> Bool {
    shape?.stream ?? false
  }

  /// Checks every reference inside `value`; `stepIndex` is the index of the
  /// step that uses them (references must point before it).
  private mutating func checkTemplates(
    in value: JSONValue, at p: [JSONPathComponent], stepIndex: Int, shapes: [String: EndpointResultShape],
    loopName: String?,
    hasLoop: Bool
  ) {
    let found: [(path: JSONPath, reference: TemplateReference)]
    do {
      found = try Template.references(in: value)
    } catch {
      return  // syntax errors were reported by the loader
    }
    for (path, ref) in found {
      let where_ =
        p
        + path.steps.compactMap { step -> JSONPathComponent? in
          switch step.kind {
          case .key(let k): return .key(k)
          case .index(let i): return .index(i)
          default: return nil
          }
        }
      checkReference(ref, at: where_, stepIndex: stepIndex, shapes: shapes, loopName: loopName, hasLoop: hasLoop)
    }
  }

  private mutating func checkReference(
    _ ref: TemplateReference, at p: [JSONPathComponent], stepIndex: Int, shapes: [String: EndpointResultShape],
    loopName: String?,
    hasLoop: Bool
  ) {
    switch ref.namespace {
    case "env":
      return
    case "input":
      guard let name = ref.firstKey else {
        if !ref.path.steps.isEmpty { fail(p, "\(ref) must name an input, e.g. ${input.csv}") }
        return
      }
      if recipe.input(named: name) == nil {
        let names = recipe.inputs.map(\.name)
        fail(
          p, "\(ref) refers to an input \"\(name)\" that the recipe does not declare",
          hint: Suggestions.hint(for: name, in: names).map { $0 + " (or declare it under \"inputs\")" }
            ?? "declare it under \"inputs\"" + (names.isEmpty ? "" : " (declared: \(names.joined(separator: ", ")))"))
      }
    case "steps":
      checkStepReference(ref, at: p, stepIndex: stepIndex, shapes: shapes)
    case Self.runNamespace:
      guard let key = ref.firstKey, ["id", "recipe"].contains(key), ref.path.steps.count == 1 else {
        fail(p, "\(ref) is not a run value", hint: "use ${run.id} or ${run.recipe}")
        return
      }
    case Self.loopNamespace:
      guard hasLoop else {
        fail(
          p, "\(ref) is only defined inside a foreach step or a step repeated with until",
          hint: "add \"foreach\" or \"until\" to this step")
        return
      }
      guard let key = ref.firstKey, ["index", "number", "previous"].contains(key) else {
        fail(
          p, "\(ref) is not a loop value",
          hint: "use ${loop.index} (from 0), ${loop.number} (from 1) or ${loop.previous}")
        return
      }
    default:
      if let loopName, ref.namespace == loopName { return }
      var known = ["input", "steps", "env", Self.runNamespace]
      if hasLoop { known.append(Self.loopNamespace) }
      if let loopName { known.append(loopName) }
      fail(
        p, "unknown namespace \"\(ref.namespace)\" in \(ref)",
        hint: Suggestions.hint(for: ref.namespace, in: known) ?? "references can use: \(known.joined(separator: ", "))")
    }
  }

  private mutating func checkStepReference(
    _ ref: TemplateReference, at p: [JSONPathComponent], stepIndex: Int, shapes: [String: EndpointResultShape]
  ) {
    guard let id = ref.firstKey else {
      fail(p, "\(ref) must name a step, e.g. ${steps.upload.body}")
      return
    }
    guard let target = recipe.stepIndex(id: id) else {
      let earlier = recipe.steps.prefix(max(0, min(stepIndex, recipe.steps.count))).map(\.id)
      fail(
        p, "\(ref) refers to a step \"\(id)\" that does not exist",
        hint: Suggestions.hint(for: id, in: earlier)
          ?? (earlier.isEmpty ? "no step runs before this one" : "earlier steps: \(earlier.joined(separator: ", "))"))
      return
    }
    guard target < stepIndex else {
      fail(
        p,
        target == stepIndex
          ? "\(ref) refers to the step's own result" : "\(ref) refers to the step \"\(id)\", which runs later",
        hint: target == stepIndex
          ? "check the step's own result with \"expect\" paths such as \".body.id\", or capture it"
          : "a step can only use the results of steps that ran before it; move \"\(id)\" earlier")
      return
    }
    let step = recipe.steps[target]
    let rest = Array(ref.path.steps.dropFirst())
    let isArray = step.foreach != nil || (step.until != nil && !Self.isStream(shapes[id]))
    var fieldSteps = rest[...]
    if isArray {
      guard let first = fieldSteps.first else { return }
      switch first.kind {
      case .key(let k) where k != "length":
        fail(
          p, "\(ref): the step \"\(id)\" runs several times, so its result is an array",
          hint: "index it: ${steps.\(id)[0].\(k)}, ${steps.\(id)[-1].\(k)} or ${steps.\(id)[].\(k)}")
        return
      default:
        fieldSteps = fieldSteps.dropFirst()
      }
    }
    guard let fieldStep = fieldSteps.first, case .key(let field) = fieldStep.kind else { return }
    var fields = ["status", "headers", "skipped", "error"]
    fields += (shapes[id] ?? .any).fields
    fields += step.capture.map(\.name)
    if !fields.contains(field) {
      fail(
        p, "\(ref): the result of step \"\(id)\" has no field \"\(field)\"",
        hint: Suggestions.hint(for: field, in: fields) ?? "its fields: \(fields.joined(separator: ", "))")
    }
  }
}

/// Human names of parameter types, for messages.
enum ParamCoercionNames {
  static func name(_ type: ParamType) -> String { ParamCoercion.expected(type) }
}
