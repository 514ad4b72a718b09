import APXCore
import Testing

/// A check object's keys become one predicate each; the file format is unchanged.
@Suite("Recipe check predicates")
struct RecipePredicateTests {
  static func checks(_ expect: String) throws -> [RecipeCheck] {
    var reader = try DocumentReader.parse(
      Array(#"{"name": "t", "steps": [{"id": "s", "call": "books.get", "expect": \#(expect)}]}"#.utf8), file: "r.json")
    return try RecipeLoader.load(&reader).steps.first?.expect?.checks ?? []
  }

  @Test func eachKeyOfACheckObjectIsOnePredicate() throws {
    let checks = try Self.checks(
      #"{".body.n": {"greater": 1, "less": 9, "exists": true}, ".body.s": "ok", ".body.t": {"exists": false}}"#)
    #expect(checks.map(\.predicates) == [[.exists, .less(9), .greater(1)], [.equals(.string("ok"))], [.missing]])
    #expect(checks[0].summary == ".body.n exists and < 9 and > 1")
  }

  @Test func aCheckWithoutPredicatesAsksForATruthyValue() throws {
    let checks = try Self.checks(#"{"checks": [{"path": ".body.ready"}]}"#)
    #expect(checks.map(\.predicates) == [[]])
    #expect(checks.first?.summary == ".body.ready is truthy")
    let outcome = try RecipeCheckEvaluator.evaluate(
      try #require(checks.first), on: .object([JSONMember("body", .object([JSONMember("ready", .int(0))]))])
    ) { _ throws(APXError) in nil }
    #expect(outcome.failure == ".body.ready is 0, expected a truthy value")
  }

  @Test func presenceIsTestedFirstWhereverItIsListed() throws {
    let check = RecipeCheck(subject: .path(try JSONPath(parsing: ".gone")), [.greater(1), .exists])
    let outcome = try RecipeCheckEvaluator.evaluate(check, on: .object([])) { _ throws(APXError) in nil }
    #expect(outcome.failure == ".gone does not exist")
  }

  @Test func aBadPredicateValueIsReportedWhereItIsWritten() throws {
    var reader = try DocumentReader.parse(
      Array(
        """
        {"name": "t", "steps": [{"id": "s", "call": "books.get",
          "expect": {".body.n": {"less": "nine"}}}]}
        """.utf8), file: "r.json")
    let errors = #expect(throws: APXErrors.self) { _ = try RecipeLoader.load(&reader) }
    let error = try #require(errors?.errors.first)
    #expect(error.file == "r.json")
    #expect(error.location?.line == 2)
    #expect(error.path == #".steps[0].expect[".body.n"].less"#)
  }
}
