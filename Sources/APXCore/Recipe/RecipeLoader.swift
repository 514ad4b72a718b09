/// Turns the bytes of a recipe file into a `Recipe`, or every structural
/// problem in it at once (file:line:column, JSON path, hint). Whether the
/// endpoints, parameters and references fit the registry is
/// `RecipeValidator`'s job.
public enum RecipeLoader {
  static let topKeys = ["$schema", "name", "description", "inputs", "steps", "output"]
  static let inputKeys = ["type", "required", "default", "description", "secret"]
  static let stepKeys = [
    "id", "call", "description", "with", "headers", "body", "expect", "capture", "until", "max_iterations",
    "interval", "max_events", "all", "max_items", "retry", "timeout", "if", "foreach", "continue_on_error", "batch",
  ]
  static let batchCallKeys = ["call", "with"]
  static let checkKeys = ["path", "equals", "one_of", "exists", "matches", "less", "greater"]
  static let foreachKeys = ["over", "as", "concurrency", "chunk"]
  /// Result fields a capture may not shadow.
  public static let reservedResultKeys: Set<String> = [
    "status", "headers", "body", "events", "last", "count", "skipped", "error", "items", "ok",
  ]

  /// True when `value` looks like a recipe (a top-level object with `steps`),
  /// so `apx validate` can tell recipes from registry files.
  public static func isRecipe(_ value: JSONValue) -> Bool {
    value["steps"] != nil && value["endpoints"] == nil
  }

  /// Loads one recipe file. `file` names it in messages.
  public static func load(_ bytes: [UInt8], file: String) throws(APXErrors) -> Recipe {
    var reader: DocumentReader
    do {
      reader = try DocumentReader.parse(bytes, file: file)
    } catch {
      throw APXErrors([error])
    }
    return try load(&reader)
  }

  /// Decodes an already parsed document.
  public static func load(_ reader: inout DocumentReader) throws(APXErrors) -> Recipe {
    let recipe = decode(&reader)
    if !reader.errors.isEmpty { throw APXErrors(reader.errors) }
    guard let recipe else {
      throw APXErrors([APXError(.invalidDefinition, "not a recipe file", file: reader.file)])
    }
    return recipe
  }

  static func decode(_ r: inout DocumentReader) -> Recipe? {
    let root: [JSONPathComponent] = []
    guard let top = r.object(r.document.value, at: root, allowed: topKeys) else { return nil }
    _ = r.optionalString(top, "$schema", at: root)
    let name = r.requiredString(top, "name", at: root) ?? ""
    var recipe = Recipe(name: name, file: r.file)
    recipe.description = r.optionalString(top, "description", at: root)
    if let inputs = top.first(where: { $0.key == "inputs" })?.value,
      let members = r.object(inputs, at: [.key("inputs")], allowed: nil)
    {
      var seen = Set<String>()
      for member in members {
        let p: [JSONPathComponent] = [.key("inputs"), .key(member.key)]
        if !seen.insert(member.key).inserted { r.fail(p, "duplicate input \"\(member.key)\"", hint: "remove one") }
        if !isName(member.key) {
          r.fail(
            p, "the input name \"\(member.key)\" may hold only letters, digits and '_' (not starting with a digit)")
        }
        if let input = decodeInput(&r, name: member.key, value: member.value, at: p) { recipe.inputs.append(input) }
      }
    }
    if let stepsValue = top.first(where: { $0.key == "steps" })?.value {
      let p: [JSONPathComponent] = [.key("steps")]
      if case .array(let items) = stepsValue {
        if items.isEmpty { r.fail(p, "the recipe has no steps", hint: "add at least one step with an id and a call") }
        var seen = Set<String>()
        for (i, item) in items.enumerated() {
          guard let step = decodeStep(&r, item, index: i) else { continue }
          if !seen.insert(step.id).inserted {
            r.fail(
              p + [.index(i), .key("id")], "duplicate step id \"\(step.id)\"",
              hint: "step ids must be unique: later steps refer to them as ${steps.ID}")
          }
          recipe.steps.append(step)
        }
      } else {
        r.fail(p, "expected an array of steps, got \(stepsValue.typeName)")
      }
    } else {
      r.fail(root, "missing required key \"steps\"")
    }
    if let output = top.first(where: { $0.key == "output" })?.value {
      recipe.output = output
      recipe.outputLocation = r.document.location(of: [.key("output")])
      checkTemplates(&r, output, at: [.key("output")])
    }
    return recipe
  }

  static func decodeInput(_ r: inout DocumentReader, name: String, value: JSONValue, at p: [JSONPathComponent])
    -> RecipeInput?
  {
    guard let fields = r.object(value, at: p, allowed: inputKeys) else { return nil }
    var input = RecipeInput(name: name, location: r.document.location(of: p))
    if let typeText = r.optionalString(fields, "type", at: p) {
      if let type = RecipeInputType(rawValue: typeText) {
        input.type = type
      } else {
        r.fail(
          p + [.key("type")], "unknown input type \"\(typeText)\"",
          hint: Suggestions.hint(for: typeText, in: RecipeInputType.allCases.map(\.rawValue))
            ?? "use one of: \(RecipeInputType.allCases.map(\.rawValue).joined(separator: ", "))")
      }
    }
    input.required = r.optionalBool(fields, "required", at: p) ?? false
    input.secret = r.optionalBool(fields, "secret", at: p) ?? false
    input.description = r.optionalString(fields, "description", at: p)
    if let d = fields.first(where: { $0.key == "default" })?.value {
      input.defaultValue = d
      if input.required {
        r.fail(p + [.key("default")], "a required input cannot have a default", hint: "remove one of the two")
      }
      checkTemplates(&r, d, at: p + [.key("default")])
      if !(d.stringValue.map(Template.mayContainReferences) ?? false), !RecipeInputTypes.fits(d, input.type) {
        r.fail(p + [.key("default")], "the default \(d.compactJSON) is not a \(input.type.rawValue)")
      }
    }
    return input
  }

  static func decodeStep(_ r: inout DocumentReader, _ value: JSONValue, index: Int) -> RecipeStep? {
    let p: [JSONPathComponent] = [.key("steps"), .index(index)]
    guard let f = r.object(value, at: p, allowed: stepKeys) else { return nil }
    let id = r.requiredString(f, "id", at: p) ?? ""
    if f.contains(where: { $0.key == "id" }), !isStepID(id) {
      r.fail(
        p + [.key("id")], "the step id \"\(id)\" may hold only letters, digits, '_' and '-' (starting with a letter)",
        hint: "later steps refer to it as ${steps.\(id.isEmpty ? "ID" : id)...}")
    }
    let call = r.requiredString(f, "call", at: p) ?? ""
    if f.contains(where: { $0.key == "call" }) {
      let dot = call.firstIndex(of: ".")
      if dot == nil || dot == call.startIndex || call.hasSuffix(".") {
        r.fail(p + [.key("call")], "\"\(call)\" is not API.ENDPOINT", hint: "e.g. \"books.imports.create\"")
      }
    }
    _ = r.optionalString(f, "description", at: p)
    var step = RecipeStep(id: id, call: call, location: r.document.location(of: p), index: index)
    if let w = f.first(where: { $0.key == "with" })?.value, let members = r.object(w, at: p + [.key("with")]) {
      step.with = members
      checkTemplates(&r, w, at: p + [.key("with")])
    }
    if let h = f.first(where: { $0.key == "headers" })?.value, let members = r.object(h, at: p + [.key("headers")]) {
      for m in members {
        let value = r.string(m.value, at: p + [.key("headers"), .key(m.key)])
        r.checkHeader(name: m.key, value: nil, at: p + [.key("headers"), .key(m.key)])
        if let value { r.checkHeader(name: m.key, value: value, at: p + [.key("headers"), .key(m.key)]) }
      }
      step.headers = members
      checkTemplates(&r, h, at: p + [.key("headers")])
    }
    if let b = f.first(where: { $0.key == "body" })?.value {
      step.body = b
      checkTemplates(&r, b, at: p + [.key("body")])
    }
    if let e = f.first(where: { $0.key == "expect" })?.value {
      step.expect = decodeExpect(&r, e, at: p + [.key("expect")])
    }
    if let c = f.first(where: { $0.key == "capture" })?.value, let members = r.object(c, at: p + [.key("capture")]) {
      for m in members {
        let cp = p + [.key("capture"), .key(m.key)]
        if reservedResultKeys.contains(m.key) {
          r.fail(
            cp, "the capture name \"\(m.key)\" is taken by the step result",
            hint: "reserved: \(reservedResultKeys.sorted().joined(separator: ", "))")
        }
        if !isName(m.key) { r.fail(cp, "the capture name \"\(m.key)\" may hold only letters, digits and '_'") }
        guard let text = r.string(m.value, at: cp), let path = parsePath(&r, text, at: cp) else { continue }
        step.capture.append(RecipeCapture(name: m.key, path: path))
      }
    }
    if let u = f.first(where: { $0.key == "until" })?.value {
      step.until = decodeCondition(&r, u, at: p + [.key("until")])
    }
    if let c = f.first(where: { $0.key == "if" })?.value {
      step.condition = decodeCondition(&r, c, at: p + [.key("if")])
    }
    step.maxIterations = r.optionalInt(f, "max_iterations", at: p, range: 1...1_000_000)
    step.interval = r.optionalNumber(f, "interval", at: p, range: 0...86_400)
    step.maxEvents = r.optionalInt(f, "max_events", at: p, range: 1...Int.max)
    step.all = r.optionalBool(f, "all", at: p) ?? false
    step.maxItems = r.optionalInt(f, "max_items", at: p, range: 1...Int.max)
    if step.maxItems != nil, !step.all {
      r.fail(p + [.key("max_items")], "max_items goes with \"all\": true (it stops following pages after N items)")
    }
    step.retry = r.optionalInt(f, "retry", at: p, range: 1...100)
    step.timeout = r.optionalNumber(f, "timeout", at: p, range: 0.001...1e9)
    step.continueOnError = r.optionalBool(f, "continue_on_error", at: p) ?? false
    if step.maxIterations != nil || step.interval != nil, step.until == nil {
      r.fail(p, "max_iterations and interval only apply to a step with \"until\"", hint: "add \"until\" or remove them")
    }
    if let fe = f.first(where: { $0.key == "foreach" })?.value {
      step.foreach = decodeForeach(&r, fe, at: p + [.key("foreach")])
    }
    if let b = f.first(where: { $0.key == "batch" })?.value {
      step.batch = decodeBatch(&r, b, step: step)
    }
    return step
  }

  /// The further calls of a JSON-RPC batch step: `[{"call": "API.ENDPOINT", "with": {...}}, ...]`.
  static func decodeBatch(_ r: inout DocumentReader, _ value: JSONValue, step: RecipeStep) -> [RecipeStep] {
    let p = step.documentPath + [.key("batch")]
    guard case .array(let items) = value, !items.isEmpty else {
      r.fail(
        p, "batch must be a non-empty array of calls",
        hint: "e.g. \"batch\": [{\"call\": \"calc.add\", \"with\": {...}}]")
      return []
    }
    var calls: [RecipeStep] = []
    for (index, item) in items.enumerated() {
      let ip = p + [.index(index)]
      guard let f = r.object(item, at: ip, allowed: batchCallKeys) else { continue }
      let call = r.requiredString(f, "call", at: ip) ?? ""
      let dot = call.firstIndex(of: ".")
      if f.contains(where: { $0.key == "call" }), dot == nil || dot == call.startIndex || call.hasSuffix(".") {
        r.fail(ip + [.key("call")], "\"\(call)\" is not API.ENDPOINT", hint: "e.g. \"calc.add\"")
      }
      var member = RecipeStep(id: step.id, call: call, location: r.document.location(of: ip), index: step.index)
      member.batchIndex = index
      if let w = f.first(where: { $0.key == "with" })?.value, let members = r.object(w, at: ip + [.key("with")]) {
        member.with = members
        checkTemplates(&r, w, at: ip + [.key("with")])
      }
      calls.append(member)
    }
    return calls
  }

  static func decodeExpect(_ r: inout DocumentReader, _ value: JSONValue, at p: [JSONPathComponent]) -> RecipeExpect? {
    guard let members = r.object(value, at: p) else { return nil }
    var expect = RecipeExpect()
    for m in members {
      let mp = p + [.key(m.key)]
      switch m.key {
      case "status":
        if case .array(let items) = m.value {
          expect.status = items.enumerated().compactMap {
            r.int($0.element, at: mp + [.index($0.offset)], range: 100...599)
          }
        } else if let s = r.int(m.value, at: mp, range: 100...599) {
          expect.status = [s]
        }
      case "checks":
        guard case .array(let items) = m.value else {
          r.fail(mp, "expected an array of checks, got \(m.value.typeName)")
          continue
        }
        for (i, item) in items.enumerated() {
          if let check = decodeCheck(&r, item, at: mp + [.index(i)], path: nil) { expect.checks.append(check) }
        }
      default:
        guard m.key.hasPrefix(".") || m.key.hasPrefix("${") else {
          r.fail(
            mp, "unknown key \"\(m.key)\" in expect",
            hint: "use \"status\", \"checks\", or a path such as \".body.job_id\" as the key of a check")
          continue
        }
        // `".body.status": "complete"` means equals; an object with check keys is a full check.
        if case .object(let fields) = m.value, !fields.isEmpty, fields.allSatisfy({ checkKeys.contains($0.key) }) {
          if let check = decodeCheck(&r, m.value, at: mp, path: m.key) { expect.checks.append(check) }
        } else if let subject = parseSubject(&r, m.key, at: mp) {
          checkTemplates(&r, m.value, at: mp)
          expect.checks.append(RecipeCheck(subject: subject, [.equals(m.value)], location: r.document.location(of: mp)))
        }
      }
    }
    return expect
  }

  static func decodeCheck(_ r: inout DocumentReader, _ value: JSONValue, at p: [JSONPathComponent], path: String?)
    -> RecipeCheck?
  {
    guard let f = r.object(value, at: p, allowed: checkKeys) else { return nil }
    let pathText: String?
    if let path {
      if f.contains(where: { $0.key == "path" }) {
        r.fail(p + [.key("path")], "the check's path is already its key", hint: "remove \"path\"")
      }
      pathText = path
    } else {
      pathText = r.requiredString(f, "path", at: p)
    }
    guard let pathText, let subject = parseSubject(&r, pathText, at: path == nil ? p + [.key("path")] : p) else {
      return nil
    }
    // In the order summaries name them; the evaluator tests presence first.
    var predicates: [RecipePredicate] = []
    if let e = f.first(where: { $0.key == "equals" })?.value {
      predicates.append(.equals(e))
      checkTemplates(&r, e, at: p + [.key("equals")])
    }
    if let o = f.first(where: { $0.key == "one_of" })?.value {
      if case .array(let items) = o {
        predicates.append(.oneOf(items))
      } else {
        r.fail(p + [.key("one_of")], "expected an array of values, got \(o.typeName)")
      }
    }
    if let exists = r.optionalBool(f, "exists", at: p) { predicates.append(exists ? .exists : .missing) }
    if let pattern = r.optionalString(f, "matches", at: p) {
      if let problem = RecipeRegex.problem(in: pattern) {
        r.fail(
          p + [.key("matches")], "invalid regular expression: \(problem)",
          hint:
            "a linear-time subset: classes, \\d \\w \\s, anchors, groups, | and quantifiers, e.g. \"^job_[0-9a-f]+$\""
            + " (no back-references or look-around)")
      }
      predicates.append(.matches(pattern))
    }
    let finite = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
    if let less = r.optionalNumber(f, "less", at: p, range: finite) { predicates.append(.less(less)) }
    if let greater = r.optionalNumber(f, "greater", at: p, range: finite) { predicates.append(.greater(greater)) }
    return RecipeCheck(subject: subject, predicates, location: r.document.location(of: p))
  }

  static func decodeCondition(_ r: inout DocumentReader, _ value: JSONValue, at p: [JSONPathComponent])
    -> RecipeCondition?
  {
    switch value {
    case .string(let s):
      do {
        let template = try Template(parsing: s)
        if template.references.isEmpty {
          r.fail(
            p, "the condition \"\(s)\" has no ${...} reference, so it never changes", hint: "e.g. \"${input.enabled}\"")
          return nil
        }
        return .truthy(template)
      } catch {
        r.fail(p, error.message, hint: error.hint)
        return nil
      }
    case .object:
      return decodeCheck(&r, value, at: p, path: nil).map(RecipeCondition.check)
    default:
      r.fail(
        p, "expected a template string or a check object, got \(value.typeName)",
        hint: "e.g. \"${input.enabled}\" or {\"path\": \".body.has_next\", \"equals\": false}")
      return nil
    }
  }

  static func decodeForeach(_ r: inout DocumentReader, _ value: JSONValue, at p: [JSONPathComponent]) -> RecipeForeach?
  {
    guard let f = r.object(value, at: p, allowed: foreachKeys) else { return nil }
    guard let over = f.first(where: { $0.key == "over" })?.value else {
      r.fail(p, "missing required key \"over\"", hint: "the list to loop over, e.g. \"${steps.list.body.items}\"")
      return nil
    }
    switch over {
    case .string, .array: checkTemplates(&r, over, at: p + [.key("over")])
    default: r.fail(p + [.key("over")], "expected a template or an array, got \(over.typeName)")
    }
    var loop = RecipeForeach(over: over)
    if let name = r.optionalString(f, "as", at: p) {
      if !isName(name) || ["input", "steps", "env", "loop", "run"].contains(name) {
        r.fail(
          p + [.key("as")], "\"\(name)\" cannot name the loop item",
          hint: "use a plain name other than input, steps, env, loop and run, e.g. \"item\"")
      }
      loop.name = name
    }
    loop.concurrency = r.optionalInt(f, "concurrency", at: p, range: 1...1024) ?? 1
    loop.chunk = r.optionalInt(f, "chunk", at: p, range: 1...1_000_000)
    return loop
  }

  static func parseSubject(_ r: inout DocumentReader, _ text: String, at p: [JSONPathComponent]) -> RecipeSubject? {
    if Template.mayContainReferences(text) {
      do {
        return .template(try Template(parsing: text))
      } catch {
        r.fail(p, error.message, hint: error.hint)
        return nil
      }
    }
    return parsePath(&r, text, at: p).map(RecipeSubject.path)
  }

  static func parsePath(_ r: inout DocumentReader, _ text: String, at p: [JSONPathComponent]) -> JSONPath? {
    do {
      return try JSONPath(parsing: text)
    } catch {
      r.fail(p, "invalid path \"\(text)\": \(error.message)", hint: "write a jq-style path such as \".body.job_id\"")
      return nil
    }
  }

  /// Reports template syntax errors anywhere inside `value`.
  static func checkTemplates(_ r: inout DocumentReader, _ value: JSONValue, at p: [JSONPathComponent]) {
    do {
      _ = try Template.references(in: value)
    } catch {
      r.fail(p, error.message + (error.path.map { " (in \($0))" } ?? ""), hint: error.hint)
    }
  }

  static func isName(_ s: String) -> Bool {
    guard let first = s.unicodeScalars.first, first == "_" || first.properties.isAlphabetic, first.isASCII else {
      return false
    }
    return s.unicodeScalars.allSatisfy {
      $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
    }
  }

  static func isStepID(_ s: String) -> Bool {
    guard let first = s.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
    return s.unicodeScalars.allSatisfy {
      $0.isASCII && ($0 == "_" || $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
    }
  }
}

/// Whether a JSON value fits a recipe input type.
public enum RecipeInputTypes {
  /// True when `value` is a valid `type` value (files are paths, so strings).
  public static func fits(_ value: JSONValue, _ type: RecipeInputType) -> Bool {
    switch (type, value) {
    case (.string, .string), (.file, .string), (.number, .number), (.boolean, .bool), (.json, _): return true
    default: return false
    }
  }
}
