import APXCore
import Testing

/// A foreach step's `if`: evaluated per item when it reads the item or a loop
/// variable, once for the step otherwise; the validator accepts loop variables there.
@Suite("Recipe per-item if")
struct RecipeLoopConditionTests {
  static func recipe(_ text: String) throws -> (Recipe, DocumentReader) {
    var reader = try DocumentReader.parse(Array(text.utf8), file: "r.json")
    let recipe = try RecipeLoader.load(&reader)
    return (recipe, reader)
  }

  static func problems(_ text: String) throws -> [APXError] {
    let (recipe, reader) = try recipe(text)
    return RecipeValidator.validate(recipe, registry: try RecipeValidationTests.registry(), document: reader.document)
  }

  static func step(_ stepJSON: String) throws -> RecipeStep {
    let (recipe, _) = try recipe(
      #"{"name": "t", "inputs": {"on": {"type": "boolean", "default": true}}, "steps": ["#
        + stepJSON + "]}")
    return try #require(recipe.steps.first)
  }

  @Test func anIfReadingTheItemIsPerItem() throws {
    let step = try Self.step(
      #"{"id": "s", "call": "books.imports.status", "foreach": {"over": [1], "as": "job"}, "if": "${job.enabled}", "with": {"job_id": "${job.id}"}}"#
    )
    #expect(step.conditionIsPerItem)
  }

  @Test func anIfReadingTheLoopIndexIsPerItem() throws {
    let step = try Self.step(
      #"{"id": "s", "call": "books.imports.status", "foreach": {"over": [1]}, "if": {"path": "${loop.index}", "less": 5}, "with": {"job_id": "${item}"}}"#
    )
    #expect(step.conditionIsPerItem)
  }

  @Test func aCheckWithAPathLooksIntoTheItem() throws {
    let step = try Self.step(
      #"{"id": "s", "call": "books.imports.status", "foreach": {"over": [1]}, "if": {"path": ".enabled", "equals": true}, "with": {"job_id": "${item}"}}"#
    )
    #expect(step.conditionIsPerItem)
  }

  @Test func anIfReadingTheItemInItsEqualsValueIsPerItem() throws {
    let step = try Self.step(
      #"{"id": "s", "call": "books.imports.status", "foreach": {"over": [1]}, "if": {"path": "${input.on}", "equals": "${item.on}"}, "with": {"job_id": "${item}"}}"#
    )
    #expect(step.conditionIsPerItem)
  }

  @Test func anIfNotReadingTheLoopIsEvaluatedOnce() throws {
    let step = try Self.step(
      #"{"id": "s", "call": "books.imports.status", "foreach": {"over": [1], "as": "job"}, "if": "${input.on}", "with": {"job_id": "${job}"}}"#
    )
    #expect(!step.conditionIsPerItem)
  }

  @Test func aStepWithoutForeachHasNoPerItemIf() throws {
    let step = try Self.step(
      #"{"id": "s", "call": "books.imports.status", "if": "${input.on}", "with": {"job_id": "x"}}"#)
    #expect(!step.conditionIsPerItem)
  }

  @Test func theValidatorAcceptsLoopVariablesInAForeachIf() throws {
    let errors = try Self.problems(
      """
      {
        "name": "ok",
        "steps": [
          { "id": "each", "call": "books.imports.status",
            "foreach": { "over": [{"id": "a", "on": true}], "as": "job" },
            "if": "${job.on}", "with": { "job_id": "${job.id}" } },
          { "id": "some", "call": "books.imports.status",
            "foreach": { "over": ["a", "b"] },
            "if": { "path": "${loop.index}", "less": 1 }, "with": { "job_id": "${item}" } }
        ]
      }
      """)
    #expect(errors.isEmpty, "\(errors.map(\.message))")
  }

  @Test func theValidatorRejectsTheItemInTheIfOfAStepWithoutForeach() throws {
    let errors = try Self.problems(
      """
      {
        "name": "bad",
        "steps": [
          { "id": "one", "call": "books.imports.status", "if": "${job.on}", "with": { "job_id": "a" } },
          { "id": "two", "call": "books.imports.status", "if": "${loop.index}", "with": { "job_id": "a" } }
        ]
      }
      """)
    #expect(errors.count == 2, "\(errors.map(\.message))")
    #expect(errors.first?.message.contains("unknown namespace \"job\"") == true, "\(errors.map(\.message))")
    #expect(errors.last?.message.contains("only defined inside a foreach step") == true, "\(errors.map(\.message))")
    #expect(errors.first?.location?.line == 4)
  }

  @Test func theValidatorRejectsAnotherLoopsItemName() throws {
    let errors = try Self.problems(
      """
      {
        "name": "bad",
        "steps": [
          { "id": "each", "call": "books.imports.status", "foreach": { "over": ["a"], "as": "job" },
            "if": "${jbo.on}", "with": { "job_id": "${job}" } }
        ]
      }
      """)
    #expect(errors.count == 1, "\(errors.map(\.message))")
    #expect(errors.first?.message.contains("unknown namespace \"jbo\"") == true)
    #expect(errors.first?.hint?.contains("job") == true, "\(errors.first?.hint ?? "")")
  }
}
