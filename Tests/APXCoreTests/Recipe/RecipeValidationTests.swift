import APXCore
import Testing

/// Loading and validating recipes: every problem with file:line:column, before anything runs.
@Suite("Recipe loading and validation")
struct RecipeValidationTests {
  static let books = """
    {
      "api": "books",
      "environments": { "demo": { "base_url": "http://127.0.0.1:8080" } },
      "endpoints": {
        "imports.create": { "kind": "rest", "method": "POST", "path": "/imports",
          "params": { "csv": { "in": "body", "type": "file", "required": true },
                      "row_delay_ms": { "in": "query", "type": "number" } } },
        "imports.watch": { "kind": "sse", "path": "/imports/{job_id}/stream",
          "params": { "job_id": { "in": "path", "required": true } } },
        "imports.status": { "kind": "rest", "path": "/imports/{job_id}",
          "params": { "job_id": { "in": "path", "required": true },
                      "verbose": { "in": "query", "type": "boolean" } } }
      }
    }
    """

  static func registry() throws -> RecipeRegistry {
    let api = try RegistryLoader.load(Array(books.utf8), file: "books.json")
    return RecipeRegistry(apis: ["books": api], known: ["books", "gifs"])
  }

  /// Loads and validates `text`; returns every error.
  static func problems(_ text: String) throws -> [APXError] {
    var reader = try DocumentReader.parse(Array(text.utf8), file: "r.json")
    let recipe: Recipe
    do {
      recipe = try RecipeLoader.load(&reader)
    } catch {
      return error.errors
    }
    return RecipeValidator.validate(recipe, registry: try registry(), document: reader.document)
  }

  @Test func aGoodRecipeHasNoProblems() throws {
    let errors = try Self.problems(
      """
      {
        "name": "ok",
        "inputs": { "csv": { "type": "file", "required": true }, "delay": { "type": "number", "default": 5 } },
        "steps": [
          { "id": "upload", "call": "books.imports.create", "with": { "csv": "${input.csv}", "row_delay_ms": "${input.delay}" },
            "headers": { "Idempotency-Key": "k-${run.id}" },
            "expect": { "status": 202, ".body.job_id": { "exists": true } }, "capture": { "job": ".body.job_id" } },
          { "id": "watch", "call": "books.imports.watch", "with": { "job_id": "${steps.upload.job}" },
            "until": { "path": ".event", "equals": "complete" } },
          { "id": "poll", "call": "books.imports.status", "with": { "job_id": "${steps.upload.body.job_id}" },
            "until": { "path": ".body.status", "equals": "complete" }, "interval": 0.5 },
          { "id": "each", "call": "books.imports.status", "if": "${steps.watch.count}",
            "foreach": { "over": "${steps.watch.events}", "as": "ev", "concurrency": 3 },
            "with": { "job_id": "${ev.id}-${loop.index}" } }
        ],
        "output": { "last": "${steps.watch.last.data}", "polls": "${steps.poll[-1].body}", "first": "${steps.each[0].status}" }
      }
      """)
    #expect(errors.isEmpty, "\(errors)")
  }

  @Test func brokenReferencesAreLocated() throws {
    let errors = try Self.problems(
      """
      {
        "name": "bad",
        "steps": [
          { "id": "a", "call": "books.imports.status", "with": { "job_id": "${steps.b.body.id}" } },
          { "id": "b", "call": "books.imports.status", "with": { "job_id": "${input.job}" } },
          { "id": "c", "call": "books.imports.status", "with": { "job_id": "${stpes.a.body}" } },
          { "id": "d", "call": "books.imports.status", "with": { "job_id": "${loop.index}" } },
          { "id": "e", "call": "books.imports.status", "with": { "job_id": "${steps.a.bdy}" } }
        ]
      }
      """)
    let messages = errors.map(\.message)
    #expect(errors.count == 5, "\(messages)")
    #expect(errors[0].message.contains("which runs later"))
    #expect(errors[0].location == SourceLocation(line: 4, column: 70))
    #expect(errors[0].path == ".steps[0].with.job_id")
    #expect(errors[1].message.contains("input \"job\" that the recipe does not declare"))
    #expect(errors[2].message.contains("unknown namespace \"stpes\""))
    #expect(errors[2].hint?.contains("did you mean \"steps\"?") == true)
    #expect(errors[3].message.contains("only defined inside a foreach step"))
    #expect(errors[4].message.contains("has no field \"bdy\""))
    #expect(errors[4].hint == "did you mean \"body\"?")
    #expect(errors.allSatisfy { $0.file == "r.json" && $0.status == .invalidDefinition })
  }

  @Test func endpointsParametersAndTypesAreChecked() throws {
    let errors = try Self.problems(
      """
      {
        "name": "bad",
        "inputs": { "flag": { "type": "boolean", "default": true } },
        "steps": [
          { "id": "a", "call": "books.imports.stauts", "with": { "job_id": "1" } },
          { "id": "b", "call": "movies.list" },
          { "id": "c", "call": "books.imports.status", "with": { "jobid": "1" } },
          { "id": "d", "call": "books.imports.create", "with": { "csv": "${input.flag}", "row_delay_ms": "fast" } },
          { "id": "e", "call": "books.imports.status", "with": { "job_id": "1", "verbose": "maybe" } }
        ]
      }
      """)
    let messages = errors.map(\.message)
    #expect(messages.contains("the API \"books\" has no endpoint \"imports.stauts\""), "\(messages)")
    #expect(errors.first { $0.message.contains("imports.stauts") }?.hint?.contains("books.imports.status") == true)
    #expect(messages.contains("no API named \"movies\" in the registry"))
    #expect(messages.contains("books.imports.status has no parameter \"jobid\""))
    #expect(messages.contains("step \"c\" does not bind the required parameter \"job_id\" of books.imports.status"))
    #expect(
      messages.contains { $0.contains("the input \"flag\" is a boolean, but csv of books.imports.create takes a file") }
    )
    #expect(messages.contains { $0.contains("row_delay_ms must be a number") })
    #expect(messages.contains { $0.contains("verbose must be true or false") })
  }

  @Test func structuralErrorsAreAllReportedAtOnce() throws {
    let errors = try Self.problems(
      """
      {
        "name": "bad",
        "inputs": { "n": { "type": "integer" } },
        "steps": [
          { "id": "a", "call": "books", "retry": 0, "foreach": { "over": 3 } },
          { "id": "a", "call": "books.imports.status", "with": { "job_id": "${input.n" },
            "expect": { "bogus": 1, ".body.x": { "matches": "([" } }, "capture": { "status": ".status" } }
        ],
        "output": {}
      }
      """)
    let messages = errors.map(\.message)
    #expect(messages.contains("unknown input type \"integer\""), "\(messages)")
    #expect(messages.contains("\"books\" is not API.ENDPOINT"))
    #expect(messages.contains("0 is out of range"))
    #expect(messages.contains("expected a template or an array, got number"))
    #expect(messages.contains("duplicate step id \"a\""))
    #expect(messages.contains { $0.hasPrefix("unterminated ${") })
    #expect(messages.contains("unknown key \"bogus\" in expect"))
    #expect(messages.contains { $0.hasPrefix("invalid regular expression") })
    #expect(messages.contains("the capture name \"status\" is taken by the step result"))
    #expect(errors.allSatisfy { $0.location != nil })
  }

  @Test func recipesAreToldApartFromRegistryFiles() throws {
    #expect(RecipeLoader.isRecipe(try JSONParser.parse("{\"name\": \"x\", \"steps\": []}")))
    #expect(!RecipeLoader.isRecipe(try JSONParser.parse(Self.books)))
  }

  @Test func retentionKeepsOnlyWhatIsRead() throws {
    var reader = try DocumentReader.parse(
      Array(
        """
        {
          "name": "r",
          "steps": [
            { "id": "a", "call": "books.imports.status", "with": { "job_id": "1" } },
            { "id": "b", "call": "books.imports.status", "with": { "job_id": "${steps.a.body.id}" } },
            { "id": "c", "call": "books.imports.status", "with": { "job_id": "1" } },
            { "id": "d", "call": "books.imports.status", "with": { "job_id": "1" } }
          ],
          "output": { "x": "${steps.c}", "y": "${steps.b.status}" }
        }
        """.utf8), file: "r.json")
    let recipe = try RecipeLoader.load(&reader)
    let retention = recipe.laterRetention()
    #expect(retention["a"] == .fields(["body"]))
    #expect(retention["b"] == .fields(["status"]))
    #expect(retention["c"] == .all)
    #expect(retention["d"] == nil)
    let result = JSONValue.object([
      JSONMember("status", .int(200)), JSONMember("headers", .object([])), JSONMember("body", .string("big")),
    ])
    #expect(RecipeRetention.fields(["status"]).trim(result) == .object([JSONMember("status", .int(200))]))
    #expect(RecipeRetention.all.trim(result) == result)
  }
}
