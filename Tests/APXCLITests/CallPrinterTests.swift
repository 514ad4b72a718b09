import APXCore
import APXRuntime
import Testing

@testable import apx

/// What `CallPrinter` writes for a call's events, captured from the context's streams.
@Suite("Call printer output")
struct CallPrinterTests {
  /// A printer on capturing streams (neither a terminal) and the context that holds them.
  static func printer(
    format: OutputFormat? = nil, select: String? = nil, pretty: Bool = false, verbose: Bool = false,
    tableWidth: Int? = nil
  ) throws -> (CallPrinter, Context) {
    let context = Context(environment: [:], stdout: .capturing(), stderr: .capturing())
    let settings = CallPrinter.Settings(
      format: format, select: try select.map { try JSONPath(parsing: $0) }, pretty: pretty, colors: nil,
      verbose: verbose, stderrColors: false, tableWidth: tableWidth)
    return (CallPrinter(context: context, settings: settings), context)
  }

  static func answer(_ body: String, contentType: String = "application/json") -> [CallEvent] {
    [
      .responseHead(status: 200, version: "HTTP/1.1", headers: [HeaderField("Content-Type", contentType)]),
      .bodyChunk(BodyChunk(Array(body.utf8))), .bodyEnd, .finished(status: 200, attempts: 1, failure: nil),
    ]
  }

  static func run(_ events: [CallEvent], on printer: CallPrinter) throws {
    for event in events { try printer.receive(event) }
  }

  @Test func aJSONBodyIsReformattedOnStdout() throws {
    let (compact, context) = try Self.printer()
    try Self.run(Self.answer(#"{ "a" : [1, 2] }"#), on: compact)
    #expect(context.stdout.captured == #"{"a":[1,2]}"# + "\n")
    #expect(context.stderr.captured.isEmpty)
    let (pretty, prettyContext) = try Self.printer(pretty: true)
    try Self.run(Self.answer(#"{"a": 1}"#), on: pretty)
    #expect(prettyContext.stdout.captured == "{\n  \"a\": 1\n}\n")
  }

  @Test func selectPrintsEachSelectedValue() throws {
    let (printer, context) = try Self.printer(select: ".items[].id")
    try Self.run(Self.answer(#"{"items": [{"id": "x"}, {"id": 2}]}"#), on: printer)
    #expect(context.stdout.captured == "\"x\"\n2\n")
  }

  @Test func aBodyThatIsNotJSONIsPrintedAsReceivedWithAWarning() throws {
    let (printer, context) = try Self.printer()
    try Self.run(Self.answer("not json at all"), on: printer)
    #expect(context.stdout.captured == "not json at all")
    #expect(context.stderr.captured.hasPrefix("apx: the response is not valid JSON ("))
    #expect(context.stderr.captured.hasSuffix("); printed as received\n"))
  }

  @Test func rawOutputKeepsTheBytes() throws {
    let (printer, context) = try Self.printer(format: .raw)
    try Self.run(Self.answer(#"{ "a" : 1 }"#), on: printer)
    #expect(context.stdout.captured == #"{ "a" : 1 }"#)
  }

  @Test func streamItemsPrintOnePerLine() throws {
    let (printer, context) = try Self.printer(pretty: true)
    let items: [JSONValue] = [.object([JSONMember("n", .int(1))]), .object([JSONMember("n", .int(2))])]
    try Self.run(items.map(CallEvent.message) + [.finished(status: nil, attempts: 1, failure: nil)], on: printer)
    #expect(context.stdout.captured == "{\"n\":1}\n{\"n\":2}\n")
    #expect(printer.messageCount == 2)
  }

  @Test func ndjsonLinesAreItemsAndABadLineIsPassedOn() throws {
    let (printer, context) = try Self.printer()
    try Self.run(Self.answer("{\"a\": 1}\n\nnope\n{\"a\": 2}\n", contentType: "application/x-ndjson"), on: printer)
    #expect(context.stdout.captured == "{\"a\":1}\nnope\n{\"a\":2}\n")
    #expect(context.stderr.captured.hasPrefix("apx: a line of the response is not JSON ("))
  }

  @Test func verboseLinesGoToStderr() throws {
    let (printer, context) = try Self.printer(verbose: true)
    try printer.receive(
      .requestSent(method: "GET", url: "http://h/x", headers: [HeaderField("Accept", "application/json")], attempt: 2))
    try Self.run(Self.answer("{}"), on: printer)
    let lines = context.stderr.captured.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines.dropLast(2).joined(separator: "\n") + "\n"
        == "> GET http://h/x  (attempt 2)\n> Accept: application/json\n>\n"
        + "< HTTP/1.1 200\n< Content-Type: application/json\n<\n", "\(context.stderr.captured)")
    // After the body: its status, time and size.
    let last = String(lines.dropLast().last ?? "")
    #expect(last.hasPrefix("* 200 in ") && last.hasSuffix(" ms, 2 bytes of body"), "\(last)")
    #expect(context.stdout.captured == "{}\n")
  }

  @Test func notesAndRetriesAreLinesOnStderr() throws {
    let (printer, context) = try Self.printer()
    try printer.receive(.retrying(attempt: 2, after: 1.5, reason: "GET /x answered 503"))
    try printer.receive(.note("a note with \u{1B}[31m in it"))
    #expect(
      context.stderr.captured
        == "apx: GET /x answered 503; retrying in 1.5s (attempt 2)\napx: a note with \\u{1B}[31m in it\n")
    #expect(context.stdout.captured.isEmpty)
  }

  @Test func aBodyInAnEncodingApxDoesNotDecodeIsNotSelected() throws {
    let (printer, context) = try Self.printer(select: ".a")
    try printer.receive(
      .responseHead(
        status: 200, version: "HTTP/1.1",
        headers: [HeaderField("Content-Type", "application/json"), HeaderField("Content-Encoding", "br")]))
    let error = #expect(throws: APXError.self) { try printer.receive(.bodyChunk(BodyChunk(Array("xx".utf8)))) }
    #expect(error?.status == .expectation)
    #expect(error?.message.contains("br-encoded") == true)
    #expect(context.stdout.captured.isEmpty)
  }

  @Test func aTableTooWideNamesTheColumnsLeftOut() throws {
    let (printer, context) = try Self.printer(format: .table, tableWidth: 12)
    try Self.run(
      Self.answer(#"[{"id": 1, "title": "a long title here", "author": "someone"}]"#), on: printer)
    #expect(context.stdout.captured.hasPrefix("id"))
    #expect(context.stderr.captured.hasPrefix("apx: "))
    #expect(context.stderr.captured.contains("left out to fit 12 columns"))
  }

  @Test func aStreamTableOnATerminalLeavesNoProgressBarBehind() throws {
    let context = Context(
      environment: ["COLUMNS": "80"], stdout: .capturing(asTerminal: true), stderr: .capturing(asTerminal: true))
    let settings = CallPrinter.Settings(
      format: .table, select: nil, pretty: false, colors: nil, verbose: false, stderrColors: false, tableWidth: 80)
    let printer = CallPrinter(context: context, settings: settings)
    try Self.run(
      [
        .message(.object([JSONMember("id", .int(1))])), .progress(fraction: 0.5, done: 1, total: 2),
        .message(.object([JSONMember("id", .int(2))])), .progress(fraction: 1, done: 2, total: 2),
        .finished(status: 200, attempts: 1, failure: nil),
      ], on: printer)
    #expect(context.stdout.captured == "id\n--\n 1\n 2\n")
    let stderr = context.stderr.captured
    #expect(stderr.contains("100%"), "the bar was drawn: \(stderr.debugDescription)")
    #expect(stderr.hasSuffix("\r\u{1B}[2K"), "and erased, not drawn again after the table: \(stderr.debugDescription)")
  }
}
