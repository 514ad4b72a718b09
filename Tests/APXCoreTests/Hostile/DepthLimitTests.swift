import APXCore
import Testing

/// Recursive parsers and evaluators have depth and size limits with clear errors,
/// never a stack overflow.
@Suite struct DepthLimitTests {
  @Test func selectPathOfFiveThousandSegmentsIsRejected() throws {
    let text = "." + Array(repeating: "a", count: 5000).joined(separator: ".")
    do {
      _ = try JSONPath(parsing: text)
      Issue.record("a 5,000-step path parsed")
    } catch {
      #expect(error.status == .usage)
      #expect(error.message == "invalid path: more than \(JSONPath.maxSteps) steps")
    }
  }

  @Test func pathAtTheLimitStillWorks() throws {
    let text = "." + Array(repeating: "a", count: JSONPath.maxSteps).joined(separator: ".")
    let path = try JSONPath(parsing: text)
    #expect(try path.select(in: .object([])) == [.null])
  }

  @Test func deeplyNestedJSONIsAnErrorNotACrash() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    var formatter = JSONStreamFormatter()
    var out: [UInt8] = []
    #expect(throws: JSONSyntaxError.self) { try formatter.feed(Array(deep.utf8), into: &out) }
  }

  @Test func templateReferenceWithAHugePathIsRejected() {
    let text = "${steps.a." + Array(repeating: "b", count: 6000).joined(separator: ".") + "}"
    #expect(throws: APXError.self) { try Template(parsing: text) }
  }

  @Test func recipeCapturePathOfSixThousandSegmentsFailsValidation() throws {
    let path = "." + Array(repeating: "x", count: 6000).joined(separator: ".")
    let errors = try RecipeValidationTests.problems(
      """
      { "name": "deep", "steps": [ { "id": "s", "call": "books.imports.status", "with": { "job_id": "j" },
        "capture": { "x": "\(path)" } } ] }
      """)
    #expect(errors.contains { $0.message.contains("more than \(JSONPath.maxSteps) steps") }, "\(errors)")
  }
}
