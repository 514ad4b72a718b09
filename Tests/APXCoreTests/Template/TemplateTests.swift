import Testing

@testable import APXCore

@Suite("Template")
struct TemplateTests {
  static let steps: JSONValue = {
    do {
      return try JSONParser.parse(
        #"""
        {"upload": {"status": 202, "body": {"job_id": "job-42", "rows": 9007199254740993, "ok": true, "meta": {"a": [1, 2]}}},
         "watch": {"events": [{"event": "progress", "data": {"p": 0.5}}, {"event": "complete", "data": "done"}], "count": 2},
         "upload-csv": {"status": 201}}
        """#)
    } catch {
      return .null
    }
  }()

  static let scope = TemplateScope(
    environment: { ["TOKEN": "s3cret", "EMPTY": ""][$0] },
    values: [
      "input": .object([JSONMember("csv", .string("people.csv")), JSONMember("limit", .number("10"))]), "steps": steps,
    ])

  func render(_ text: String) throws -> JSONValue {
    try Template(parsing: text).render(resolve: Self.scope.resolve)
  }

  @Test("a whole-string reference keeps the JSON type of its value")
  func keepsType() throws {
    #expect(try render("${steps.upload.status}") == .number("202"))
    #expect(try render("${steps.upload.body.rows}") == .number("9007199254740993"))
    #expect(try render("${steps.upload.body.ok}") == .bool(true))
    #expect(try render("${steps.upload.body.meta}").compactJSON == #"{"a":[1,2]}"#)
    #expect(try render("${steps.upload.body.job_id}") == .string("job-42"))
    #expect(try render("${steps.watch.events[0].data}").compactJSON == #"{"p":0.5}"#)
    #expect(try render("${steps.watch.events[-1].data}") == .string("done"))
    #expect(try render("${steps.watch.events[].event}").compactJSON == #"["progress","complete"]"#)
    #expect(try render("${input.limit}") == .number("10"))
    #expect(try render("${input}").compactJSON == #"{"csv":"people.csv","limit":10}"#)
    #expect(try render(#"${steps["upload-csv"].status}"#) == .number("201"))
    #expect(try render("${steps.upload-csv.status}") == .number("201"))
  }

  @Test("embedded references are interpolated as text")
  func interpolates() throws {
    #expect(
      try render("job ${steps.upload.body.job_id} has ${steps.upload.body.rows} rows")
        == .string("job job-42 has 9007199254740993 rows"))
    #expect(try render("Bearer ${env:TOKEN}") == .string("Bearer s3cret"))
    #expect(try render("meta=${steps.upload.body.meta}") == .string(#"meta={"a":[1,2]}"#))
    #expect(try render("${input.csv}${input.limit}") == .string("people.csv10"))
    #expect(try render(" ${input.limit}") == .string(" 10"))
    #expect(try render("${env:EMPTY}") == .string(""))
  }

  @Test("text without references stays as it is; $${ is a literal ${")
  func literals() throws {
    #expect(try render("") == .string(""))
    #expect(try render("plain $ text {}") == .string("plain $ text {}"))
    #expect(try render("$${env:TOKEN}") == .string("${env:TOKEN}"))
    #expect(try render("a $${x} ${input.limit} $$") == .string("a ${x} 10 $$"))
    #expect(try Template(parsing: "$${input.csv}").references.isEmpty)
  }

  @Test("references are listed with namespace, variable and path")
  func references() throws {
    let template = try Template(parsing: "${env:TOKEN} ${steps.upload.body.job_id} ${input.csv} ${env:HOME:-/root}")
    let refs = template.references
    #expect(refs.map(\.namespace) == ["env", "steps", "input", "env"])
    #expect(refs[0].variable == "TOKEN")
    #expect(refs[1].path.text == ".upload.body.job_id")
    #expect(refs[1].firstKey == "upload")
    #expect(refs[2].description == "${input.csv}")
    #expect(refs[3].fallback == "/root")
    #expect(!template.isSingleReference)
    #expect(try Template(parsing: "${input.csv}").isSingleReference)
    #expect(Template.mayContainReferences("a ${b}"))
    #expect(!Template.mayContainReferences("a $ {b}"))
  }

  @Test("an unset variable uses its fallback, or is an error naming it")
  func envFallback() throws {
    #expect(try render("${env:NOPE:-fallback value}") == .string("fallback value"))
    #expect(try render("${env:TOKEN:-unused}") == .string("s3cret"))
    #expect(try render("${env:NOPE:-}") == .string(""))
    let error = #expect(throws: APXError.self) { try render("x ${env:NOPE}") }
    #expect(error?.message == "unresolved reference ${env:NOPE}")
    #expect(error?.hint?.contains("NOPE") == true)
  }

  @Test("references that do not resolve are errors naming them")
  func unresolved() throws {
    let missingKey = #expect(throws: APXError.self) { try render("${steps.upload.body.jobid}") }
    #expect(missingKey?.message.contains("${steps.upload.body.jobid}") == true)
    #expect(missingKey?.message.contains(#"no key "jobid""#) == true)
    #expect(missingKey?.message.contains("at steps.upload.body") == true)
    #expect(missingKey?.hint?.contains(#""job_id""#) == true)
    let missingStep = #expect(throws: APXError.self) { try render("${steps.later.body}") }
    #expect(missingStep?.message.contains("${steps.later.body}") == true)
    let badType = #expect(throws: APXError.self) { try render("${steps.upload.status.code}") }
    #expect(badType?.message.contains("cannot index number") == true)
    let unknown = #expect(throws: APXError.self) { try render("${secrets.x}") }
    #expect(unknown?.message == "unknown namespace 'secrets' in ${secrets.x}")
    #expect(unknown?.hint == "references can use: env, input, steps")
    let byClosure = #expect(throws: APXError.self) {
      try Template(parsing: "${input.csv}").render { _ in nil }
    }
    #expect(byClosure?.message == "unresolved reference ${input.csv}")
  }

  struct Bad: Sendable, CustomTestStringConvertible {
    var text: String
    var column: Int
    var message: String
    var testDescription: String { text }
  }

  static let bad: [Bad] = [
    Bad(text: "abc ${input.csv", column: 5, message: "unterminated ${ at column 5"),
    Bad(text: "${}", column: 3, message: "the reference is empty"),
    Bad(text: "${ input.csv}", column: 3, message: "expected a namespace name"),
    Bad(text: "${env}", column: 6, message: "expected ':' after env"),
    Bad(text: "${env:}", column: 7, message: "expected a variable name"),
    Bad(text: "${env:A B}", column: 8, message: "unexpected ' ' after the variable name"),
    Bad(text: "${input csv}", column: 8, message: "expected '.' or '[' after the namespace 'input'"),
    Bad(text: "x${steps.a.}", column: 12, message: "expected a key name"),
    Bad(text: "${steps.a[0}", column: 12, message: "expected ']'"),
    Bad(text: "${a ${b}}", column: 5, message: "nested ${ at column 5"),
  ]

  @Test("malformed templates are errors with a column", arguments: bad)
  func malformed(_ bad: Bad) {
    let error = #expect(throws: APXError.self) { try Template(parsing: bad.text) }
    #expect(error?.status == .usage)
    #expect(error?.location?.column == bad.column, "\(error?.message ?? "")")
    #expect(error?.message.contains(bad.message) == true, "\(error?.message ?? "no error")")
  }

  @Test("quoted keys may contain braces")
  func bracesInQuotes() throws {
    let scope = TemplateScope(values: ["input": .object([JSONMember("a}b", .string("ok"))])])
    #expect(try Template(parsing: #"${input["a}b"]}!"#).render(resolve: scope.resolve) == .string("ok!"))
  }

  @Test("renderStrings renders every string in a tree and keeps types")
  func renderTree() throws {
    let with = try JSONParser.parse(
      #"{"job_id": "${steps.upload.body.job_id}", "rows": "${steps.upload.body.rows}", "label": "job ${steps.upload.body.job_id}","#
        + #" "list": ["${input.limit}", 1, null, {"${input.csv}": "$${literal}"}], "plain": "no refs"}"#)
    let rendered = try Template.renderStrings(in: with, resolve: Self.scope.resolve)
    #expect(
      rendered.compactJSON
        == #"{"job_id":"job-42","rows":9007199254740993,"label":"job job-42","list":[10,1,null,{"${input.csv}":"${literal}"}],"plain":"no refs"}"#
    )
  }

  @Test("renderStrings errors say where in the tree the string is")
  func renderTreeError() throws {
    let with = try JSONParser.parse(#"{"a": [1, {"b": "${steps.nope}"}]}"#)
    let error = #expect(throws: APXError.self) { try Template.renderStrings(in: with, resolve: Self.scope.resolve) }
    #expect(error?.path == ".a[1].b")
    let parse = #expect(throws: APXError.self) {
      try Template.renderStrings(in: .array([.string("${oops")]), resolve: Self.scope.resolve)
    }
    #expect(parse?.path == "[0]")
  }

  @Test("references(in:) lists every reference with its location")
  func referencesInTree() throws {
    let value = try JSONParser.parse(#"{"a": "${input.csv}", "b": ["x ${env:T} ${steps.s.body}"]}"#)
    let found = try Template.references(in: value)
    #expect(found.map(\.path.text) == [".a", ".b[0]", ".b[0]"])
    #expect(found.map(\.reference.text) == ["input.csv", "env:T", "steps.s.body"])
  }
}
