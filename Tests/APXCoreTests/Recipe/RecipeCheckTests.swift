import APXCore
import Testing

/// `expect` checks, conditions, the run scope and input binding.
@Suite("Recipe checks and scope")
struct RecipeCheckTests {
  static let result: JSONValue =
    (try? JSONParser.parse(
      #"{"status": 202, "body": {"job_id": "imp_1f", "rows": 12, "ratio": 1.0, "tags": ["a"], "none": null}}"#))
    ?? .null

  static func check(
    _ path: String, equals: JSONValue? = nil, exists: Bool? = nil, matches: String? = nil,
    less: Double? = nil, greater: Double? = nil
  ) throws -> RecipeCheckEvaluator.Outcome {
    var predicates: [RecipePredicate] = []
    if let equals { predicates.append(.equals(equals)) }
    if let exists { predicates.append(exists ? .exists : .missing) }
    if let matches { predicates.append(.matches(matches)) }
    if let less { predicates.append(.less(less)) }
    if let greater { predicates.append(.greater(greater)) }
    let c = RecipeCheck(subject: .path(try JSONPath(parsing: path)), predicates)
    return try RecipeCheckEvaluator.evaluate(c, on: result) { _ throws(APXError) in nil }
  }

  @Test func equalsComparesNumbersByValue() throws {
    #expect(try Self.check(".body.rows", equals: .number("12")).passed)
    #expect(try Self.check(".body.ratio", equals: .number("1")).passed)
    #expect(try Self.check(".status", equals: .string("202")).passed)
    let failed = try Self.check(".body.job_id", equals: .string("imp_2"))
    #expect(!failed.passed)
    #expect(failed.failure == ".body.job_id is \"imp_1f\", expected \"imp_2\"")
  }

  @Test func existsMatchesAndBounds() throws {
    #expect(try Self.check(".body.job_id", exists: true).passed)
    #expect(!(try Self.check(".body.none", exists: true).passed))
    #expect(try Self.check(".body.missing", exists: false).passed)
    #expect(try Self.check(".body.job_id", matches: "^imp_[0-9a-f]+$").passed)
    #expect(!(try Self.check(".body.job_id", matches: "^job_").passed))
    #expect(try Self.check(".body.rows", less: 13, greater: 11).passed)
    #expect(!(try Self.check(".body.rows", less: 12).passed))
    #expect(!(try Self.check(".body.job_id", greater: 1).passed))
  }

  @Test func conditionsAndTruthiness() throws {
    let scope = RecipeScope(
      environment: { $0 == "MODE" ? "fast" : nil },
      inputs: .object([JSONMember("on", .bool(true)), JSONMember("off", .string("false"))]),
      steps: ["a": Self.result])
    #expect(
      try RecipeCheckEvaluator.holds(.truthy(Template(parsing: "${input.on}")), on: .null, resolve: scope.resolve))
    #expect(
      !(try RecipeCheckEvaluator.holds(.truthy(Template(parsing: "${input.off}")), on: .null, resolve: scope.resolve)))
    let byTemplate = RecipeCheck(subject: .template(try Template(parsing: "${steps.a.body.rows}")), [.greater(10)])
    #expect(try RecipeCheckEvaluator.holds(.check(byTemplate), on: .null, resolve: scope.resolve))
    #expect(
      try Template(parsing: "${env:MODE}-${steps.a.body.tags[0]}").render(resolve: scope.resolve) == .string("fast-a"))
    #expect(throws: APXError.self) { try Template(parsing: "${steps.b.body}").render(resolve: scope.resolve) }
    #expect(throws: APXError.self) { try Template(parsing: "${steps.a.body.nope}").render(resolve: scope.resolve) }
    for falsy: JSONValue in [.null, .bool(false), .number("0"), .string(""), .array([]), .object([])] {
      #expect(!RecipeCheckEvaluator.isTruthy(falsy))
    }
  }

  @Test func loopAndItemNamespaces() throws {
    var scope = RecipeScope(environment: { _ in nil }, inputs: .object([]))
    scope.loop = .object([JSONMember("number", .int(3))])
    scope.item = ("gif", .object([JSONMember("slug", .string("cat"))]))
    #expect(try Template(parsing: "/${gif.slug}/${loop.number}").render(resolve: scope.resolve) == .string("/cat/3"))
    #expect(try Template(parsing: "${loop.number}").render(resolve: scope.resolve) == .number("3"))
  }

  @Test func inputsAreBoundWithTheirTypes() throws {
    let recipe = Recipe(
      name: "r",
      inputs: [
        RecipeInput(name: "csv", type: .file, required: true),
        RecipeInput(name: "n", type: .number, defaultValue: .number("20")),
        RecipeInput(name: "flag", type: .boolean),
        RecipeInput(name: "doc", type: .json),
        RecipeInput(name: "key", defaultValue: .string("k-${run.id}")),
      ], file: "r.json")
    let resolve: (TemplateReference) throws(APXError) -> JSONValue? = { _ throws(APXError) in .string("RUN") }
    let bound = try RecipeInputBinder.bind(
      recipe,
      given: [
        .init(name: "csv", value: .string("b.csv"), isFile: true), .init(name: "flag", value: .string("yes")),
        .init(name: "doc", value: .string("[1,2]")),
      ], resolve: resolve)
    #expect(bound["csv"] == .string("b.csv"))
    #expect(bound["n"] == .number("20"))
    #expect(bound["flag"] == .bool(true))
    #expect(bound["doc"] == .array([.number("1"), .number("2")]))
    #expect(bound["key"] == .string("k-RUN"))

    do {
      _ = try RecipeInputBinder.bind(
        recipe, given: [.init(name: "n", value: .string("many")), .init(name: "cvs", value: .string("x"))],
        resolve: resolve)
      Issue.record("expected errors")
    } catch {
      let messages = error.errors.map(\.message)
      #expect(messages.contains("the recipe \"r\" has no input \"cvs\""), "\(messages)")
      #expect(messages.contains("the input n must be a number, got \"many\""))
      #expect(messages.contains("the recipe \"r\" needs the input \"csv\""))
    }
  }
}
