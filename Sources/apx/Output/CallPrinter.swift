import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Formats a call's events for the terminal or a pipe: the body or stream
/// items on stdout, verbose request/response lines and notes on stderr.
/// Events arrive in order from one task at a time.
final class CallPrinter: CallEventSink, @unchecked Sendable {
  struct Settings {
    var format: OutputFormat?
    var select: JSONPath?
    var pretty: Bool
    var colors: JSONColors?
    var verbose: Bool
    var stderrColors: Bool
    /// `-r`: string results without JSON quotes.
    var rawStrings = false
    /// The widest a table line may be (the terminal's columns), nil for no limit.
    var tableWidth: Int? = nil
    /// Draw a body's download progress on stderr (a terminal) once it has run half a
    /// second or passed 1 MiB: when the body goes to a file or a pipe, not to the terminal.
    var transferProgress = false
    /// `-i`: each answer's status line and headers go to stdout before its body.
    var includeHead = false
  }

  private enum BodyMode {
    case undecided
    /// Bytes as they arrive.
    case raw
    /// JSON re-formatted on the fly, constant memory.
    case stream(JSONBodyRelay)
    /// Collected whole for --select or tables.
    case buffered([UInt8])
    /// NDJSON / JSON Lines: each complete line printed as a stream item as soon as it arrives.
    case lines([UInt8])
    /// The body stopped being JSON after formatted output began: the rest is dropped.
    case broken
  }

  /// Longest NDJSON line held while waiting for its end (a parser size limit).
  static let maxLineBytes = 64 * 1024 * 1024

  /// The largest body `--select` and `-o table` read into memory (they parse it
  /// whole: about 3.5 bytes of memory per body byte).
  static let bufferedLimit = 64 * 1_048_576

  let context: Context
  let settings: Settings
  /// Where bodies and stream items go: stdout, or `-O`'s file.
  let out: OutputStream
  /// Body bytes received, and the `Content-Length` announced (for the transfer bar).
  private var bodyBytes = 0
  private var bodyTotal: Int?
  private var bodyStarted: ContinuousClock.Instant?
  /// When the request body began to go out, and whether its bar is on screen.
  private var uploadStarted: ContinuousClock.Instant?
  private var uploadShown = false
  private var mode: BodyMode = .undecided
  private var contentType = ""
  /// A `Content-Encoding` the HTTP client did not decode (it decodes gzip and deflate), or nil.
  private var undecodedEncoding: String?
  /// Stream items printed so far.
  private(set) var messageCount = 0
  /// Set once the transport signals chunk ends (`.batchEnd`).
  private var flushesPerBatch = false
  /// Reused output buffer for stream items.
  private var scratch: [UInt8] = []
  /// The transport said the answer is one message (gRPC unary): print it as a document.
  private var singleAnswer = false
  /// `-o table` of stream items: the rows so far, printed when the call ends (a table's
  /// columns need every row), and their size as compact JSON.
  private var tableRows: [JSONValue] = []
  private var tableBytes = 0
  /// Lines of an NDJSON body read so far (blank ones included), for messages.
  private var lineNumber = 0
  /// Some answer (a body, a stream item) went out: a failure's body is then not printed after it.
  private var answerStarted = false
  /// The failed call's answer (an error status's body) was printed on stdout, so its text
  /// need not be repeated on stderr.
  private(set) var printedFailedAnswer = false
  // --- progress display (SSE watch): draws on stderr only when it is a terminal ---
  private lazy var progressDisplay = ProgressDisplay(
    stderr: context.stderr, enabled: context.stderrIsTerminal,
    stdoutIsTerminal: out === context.stdout && context.stdoutIsTerminal, verbose: settings.verbose)
  // --- end progress display ---

  /// When the last request went out, and the bytes of its answer's body so far: `-v` says how
  /// long the answer took and how big it was.
  private var requestStarted: ContinuousClock.Instant?
  private var answerBytes = 0
  private var answerStatus = 0

  /// Told of each answer's status and headers before its body is printed (`--continue`
  /// decides there whether the body extends the partial file or replaces it).
  var onResponseHead: ((Int, [HeaderField]) throws -> Void)?

  init(context: Context, settings: Settings, out: OutputStream? = nil) {
    self.context = context
    self.settings = settings
    self.out = out ?? context.stdout
  }

  func receive(_ event: CallEvent) throws {
    if case .bodySent(let bytes, let total) = event {
      reportUpload(bytes, total: total)
      return
    }
    // The upload is over once anything else happens (the answer, a retry, the end):
    // its bar goes before the response is printed.
    if uploadStarted != nil {
      uploadStarted = nil
      if uploadShown { progressDisplay.endTransfer() }
      uploadShown = false
    }
    // --- progress display: clears its line before this event's output, redraws after ---
    progressDisplay.willHandle(event)
    defer { progressDisplay.didHandle(event) }
    // --- end progress display ---
    switch event {
    case .requestSent, .proxy, .webSocketFrame:
      if case .requestSent = event {
        requestStarted = .now
        answerBytes = 0
      }
      guard settings.verbose, let text = VerboseLines.text(for: event) else { return }
      context.stderr.write(text)
      context.stderr.flush()
    case .responseHead(let status, _, let headers):
      try onResponseHead?(status, headers)
      contentType = headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
      undecodedEncoding = headers.first { $0.name.lowercased() == "content-encoding" }
        .map { $0.value.trimmingWhitespace().lowercased() }
        .flatMap { ["", "identity", "gzip", "deflate"].contains($0) ? nil : $0 }
      mode = .undecided
      singleAnswer = false
      bodyBytes = 0
      bodyStarted = nil
      bodyTotal = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) }
      answerStatus = status
      if settings.includeHead, case .responseHead(_, let version, _) = event {
        // As curl -i: the head, then an empty line, then the body.
        let reason = HTTPStatusText.reason(status)
        var text = "\(version) \(status)" + (reason.isEmpty ? "" : " " + reason) + "\n"
        for h in headers { text += "\(h.name): \(h.value)\n" }
        out.write((text + "\n").escapingTerminalControls())
        out.flush()
      }
      guard settings.verbose, let text = VerboseLines.text(for: event) else { return }
      context.stderr.write(text)
      context.stderr.flush()
    case .singleAnswer:
      singleAnswer = true
    case .bodyChunk(let bytes):
      answerStarted = true
      answerBytes += bytes.count
      try body(bytes)
      if settings.transferProgress { reportTransfer(bytes.count) }
    case .bodyEnd:
      try finishBody()
      if settings.verbose, let started = requestStarted {
        let elapsed = (ContinuousClock.now - started).components
        let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
        context.warn("* \(answerStatus) in \(milliseconds) ms, \(answerBytes) bytes of body")
      }
    case .message(let value):
      answerStarted = true
      try printMessage(value)
    case .trailers:
      guard settings.verbose, let text = VerboseLines.text(for: event) else { return }
      context.stderr.write(text)
    case .retrying(let attempt, let after, let reason):
      context.warn("apx: \(reason); retrying in \(Self.seconds(after)) (attempt \(attempt))")
    case .reconnecting(let after, let reason, let lastEventID):
      context.warn("apx: \(reason); reconnecting in \(Self.seconds(after))" + (lastEventID.map { " from \($0)" } ?? ""))
    case .fellBackToPolling(let endpoint, let interval):
      context.warn("apx: the stream keeps failing; polling \(endpoint) every \(Self.seconds(interval)) instead")
    case .progress, .bodySent, .requestBody:
      break  // drawn by the progress display when stderr is a terminal
    case .secrets:
      break  // for recorders of answers (HAR); stdout is the user's own
    case .note(let text):
      context.warn("apx: \(text)")
    case .finished(_, let attempts, let failure):
      if !tableRows.isEmpty {
        writeTable(tableRows.count == 1 ? tableRows[0] : .array(tableRows))
        tableRows = []
        out.flush()
      }
      if let body = failure?.answerBody, !body.isEmpty, !answerStarted, out === context.stdout {
        printFailedAnswer(body)
      }
      // The error itself is reported once, by the command; with -v say that a retry paid off.
      if settings.verbose, failure == nil, attempts > 1 { context.warn("apx: succeeded on attempt \(attempts)") }
    case .batchEnd:
      // From now on this stream says when a chunk is done: flush then, not per item.
      flushesPerBatch = true
      out.flush()
      if out.closed { throw StdoutClosed() }
    }
  }

  /// Feeds the transfer bar: after 0.5 s or 1 MiB, so small bodies never flash one.
  private func reportTransfer(_ count: Int) {
    bodyBytes += count
    let now = ContinuousClock.now
    let started = bodyStarted ?? now
    bodyStarted = started
    guard bodyBytes >= 1_048_576 || now - started >= .milliseconds(500) else { return }
    progressDisplay.transfer(bytes: bodyBytes, total: bodyTotal)
  }

  /// Feeds the upload bar, with the download bar's thresholds: after 0.5 s or 1 MiB.
  private func reportUpload(_ bytes: Int, total: Int?) {
    guard progressDisplay.enabled else { return }
    let now = ContinuousClock.now
    let started = uploadStarted ?? now
    uploadStarted = started
    guard uploadShown || bytes >= 1_048_576 || now - started >= .milliseconds(500) else { return }
    uploadShown = true
    progressDisplay.transfer(bytes: bytes, total: total)
  }

  private var isJSONBody: Bool {
    contentType.contains("json") || contentType.isEmpty
  }

  /// `application/x-ndjson`, `application/jsonl` and the like: one JSON text per line.
  private var isLineStream: Bool { MediaType.isLineStream(MediaType.essence(contentType)) }

  private func decideMode(_ first: BodyChunk) throws {
    if settings.format == .raw && settings.select == nil {
      mode = .raw
    } else if let encoding = undecodedEncoding {
      // Compressed bytes are never parsed as JSON.
      if settings.select != nil || settings.format == .table {
        throw APXError(
          .expectation,
          "cannot apply \(settings.select != nil ? "--select" : "-o table"): the body is \(encoding)-encoded, which apx does not decode",
          hint: "apx decodes gzip and deflate; send -H 'Accept-Encoding: gzip', or use -o raw")
      }
      mode = .raw
      context.warn("apx: the body is \(encoding)-encoded, which apx does not decode; printed as received")
    } else if isLineStream {
      mode = .lines([])
      lineNumber = 0
    } else if settings.select != nil || settings.format == .table {
      mode = .buffered([])
    } else if isJSONBody || Self.looksLikeJSON(first) {
      let style: JSONOutputStyle = (settings.pretty && settings.format != .ndjson) ? .pretty : .compact
      mode = .stream(JSONBodyRelay(formatter: JSONStreamFormatter(style: style, colors: settings.colors)))
    } else {
      mode = .raw
    }
  }

  private func body(_ bytes: BodyChunk) throws {
    if case .undecided = mode { try decideMode(bytes) }
    switch mode {
    case .undecided, .raw:
      bytes.withUnsafeBytes { out.write(raw: $0) }
    case .stream(var relay):
      var formatted: [UInt8] = []
      formatted.reserveCapacity(bytes.count + bytes.count / 2)
      mode = .undecided  // release the copy while mutating
      let step = bytes.withUnsafeBytes { relay.feed($0, into: &formatted) }
      out.write(formatted)
      mode = .stream(relay)
      try handle(step)
    case .buffered(var all):
      mode = .undecided
      guard all.count + bytes.count <= Self.bufferedLimit else {
        throw APXError(
          .expectation,
          "the response is larger than \(Self.bufferedLimit / 1_048_576) MiB, the most "
            + (settings.select != nil ? "--select" : "-o table") + " reads into memory",
          hint: "print it with -o json or -o raw (streamed, any size) and filter it with a streaming tool")
      }
      // In place: appending the chunk as a generic collection went byte by byte.
      bytes.withUnsafeBytes { all.append(contentsOf: $0) }
      mode = .buffered(all)
    case .lines(var pending):
      mode = .undecided
      bytes.withUnsafeBytes { pending.append(contentsOf: $0) }
      var start = 0
      while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
        try printLine(pending[start..<newline])
        start = newline + 1
      }
      pending.removeFirst(start)
      guard pending.count <= Self.maxLineBytes else {
        throw APXError(
          .expectation, "a line of the \(contentType) response is longer than \(Self.maxLineBytes / 1024 / 1024) MiB",
          hint: "use -o raw to see the body as it comes")
      }
      mode = .lines(pending)
    case .broken:
      break
    }
    if out.closed { throw StdoutClosed() }
  }

  /// One NDJSON line as a stream item (blank lines are skipped; a line that is not JSON is printed
  /// as it came, except under `--select` or `-o table`, which need JSON: exit 9 there, as for a body).
  private func printLine(_ line: ArraySlice<UInt8>) throws {
    var line = line
    lineNumber += 1
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    guard line.contains(where: { ![0x20, 0x09].contains($0) }) else { return }
    do {
      try printMessage(try JSONParser.parse(Array(line)))
    } catch let error as JSONSyntaxError {
      if settings.select != nil || settings.format == .table {
        // The line stays off stdout, which holds only the items selected or tabled so far.
        throw APXError(
          .expectation,
          "cannot apply \(settings.select != nil ? "--select" : "-o table"): line \(lineNumber) of the "
            + "\(contentType) response is not JSON (\(error))",
          hint: "the items before it are printed; use -o raw to see the stream as received",
          cause: String(decoding: line.prefix(200), as: UTF8.self))
      }
      context.warn("apx: a line of the response is not JSON (\(error)); printing it as it came")
      out.write(Array(line) + [UInt8(ascii: "\n")])
      out.flush()
    }
  }

  private func finishBody() throws {
    switch mode {
    case .undecided:
      if settings.select != nil || settings.format == .table { try printBuffered([]) }
    case .raw:
      break
    case .stream(var relay):
      var formatted: [UInt8] = []
      let step = relay.finish(into: &formatted)
      out.write(formatted)
      mode = .undecided
      try handle(step)
    case .buffered(let all):
      try printBuffered(all)
    case .lines(let pending):
      try printLine(pending[...])
    case .broken:
      break
    }
    mode = .undecided
    out.flush()
  }

  /// After a relay step: a body that is not JSON is printed as received with a
  /// warning (exit 0); one that breaks after formatted output began ends the call (exit 9).
  private func handle(_ step: JSONBodyRelay.Step) throws {
    switch step {
    case .formatted:
      return
    case .raw(let error):
      mode = .raw
      context.warn("apx: the response is not valid JSON (\(error)); printed as received")
    case .broken(let error):
      mode = .broken
      out.flush()
      throw APXError(
        .expectation, "the response stopped being valid JSON at byte \(error.offset + 1) (\(error.message))",
        hint: "the output above ends there; use -o raw to see the body as received")
    }
  }

  private func printBuffered(_ bytes: [UInt8]) throws {
    let value: JSONValue
    do {
      value = try JSONParser.parse(bytes)
    } catch {
      // The body as received on stdout, never a mix of it and formatted JSON.
      out.write(bytes)
      throw APXError(
        .expectation,
        "cannot apply \(settings.select != nil ? "--select" : "-o table"): the response is not JSON (\(error))",
        hint: bytes.isEmpty ? "the response has no body" : "the body is printed above as received")
    }
    let results = try settings.select.map { try $0.select(inAnswer: value) } ?? [value]
    if settings.format == .table {
      writeTable(results.count == 1 ? results[0] : .array(results))
      return
    }
    for result in results { writeValue(result) }
  }

  /// An error status's body on stdout, as curl and xh print it: formatted as any answer, with
  /// `--select` and `-o table` where they fit it and the whole body where they do not or find
  /// nothing (the status, reported on stderr, is the outcome; a selection written for the
  /// success answer must not hide the server's reason).
  private func printFailedAnswer(_ bytes: [UInt8]) {
    printedFailedAnswer = true
    defer { out.flush() }
    guard settings.format != .raw || settings.select != nil, undecodedEncoding == nil,
      let value = try? JSONParser.parse(bytes)
    else {
      out.write(bytes)
      if bytes.last != UInt8(ascii: "\n"), out === context.stdout, context.stdoutIsTerminal {
        out.write([UInt8(ascii: "\n")])
      }
      return
    }
    // A selection that finds nothing in the error body (only nulls) would hide the reason.
    let selected = settings.select.flatMap { try? $0.select(inAnswer: value) }
    let results = selected.flatMap { $0.contains { $0 != .null } ? $0 : nil } ?? [value]
    if settings.format == .table {
      writeTable(results.count == 1 ? results[0] : .array(results))
      return
    }
    for result in results { writeValue(result) }
  }

  /// A table on stdout, fitted to the terminal; what did not fit is named on stderr.
  private func writeTable(_ value: JSONValue) {
    let fitted = TableFormatter(maxLineWidth: settings.tableWidth).fitted(value)
    out.write(fitted.text)
    if !fitted.hiddenColumns.isEmpty, let width = settings.tableWidth {
      out.flush()
      context.warn(Self.hiddenColumnsNote(fitted.hiddenColumns, width: width))
    }
  }

  /// The note that says which columns a table left out to fit the terminal.
  static func hiddenColumnsNote(_ hidden: [String], width: Int) -> String {
    "apx: \(hidden.count) column\(hidden.count == 1 ? "" : "s") left out to fit \(width) columns: "
      + hidden.joined(separator: ", ") + " (--select them, widen the terminal, or use -o json)"
  }

  /// Stream items under `-o table` wait for the end of the call, as many as fit in the
  /// memory a buffered body may use.
  private func collectRows(_ rows: [JSONValue]) throws {
    for row in rows {
      tableBytes += row.compactJSON.utf8.count
      guard tableBytes <= Self.bufferedLimit else {
        throw APXError(
          .expectation, "the stream is larger than \(Self.bufferedLimit / 1_048_576) MiB, the most -o table holds",
          hint: "stop it sooner with --max-events N, or print it with -o ndjson (streamed, any length)")
      }
      tableRows.append(row)
    }
  }

  private func printMessage(_ value: JSONValue) throws {
    messageCount += 1
    let results = try settings.select.map { try $0.select(inAnswer: value) } ?? [value]
    if settings.format == .table {
      try collectRows(results)
      return
    }
    // Stream items print one per line; a single answer prints like a body.
    for result in results { writeValue(result, forceCompact: !singleAnswer && settings.format != .json) }
    // Streams that signal chunk ends are flushed there (a write per event cost 13% of
    // a 1M-event run); others are flushed per item so slow streams show up live.
    if !flushesPerBatch { out.flush() }
    if out.closed { throw StdoutClosed() }
  }

  private func writeValue(_ value: JSONValue, forceCompact: Bool = false) {
    let pretty = settings.pretty && settings.format != .ndjson && !forceCompact
    let formatter = ValueFormatter(
      format: settings.format == .raw ? .raw : .json, style: pretty ? .pretty : .compact, colors: settings.colors,
      rawStrings: settings.rawStrings)
    scratch.removeAll(keepingCapacity: true)
    formatter.write(value, into: &scratch)
    out.write(scratch[...])
  }

  static func looksLikeJSON(_ bytes: some Collection<UInt8>) -> Bool {
    guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return false }
    return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
  }

  static func seconds(_ s: Double) -> String {
    (s.rounded() == s ? NumberText.plain(s) : NumberText.oneDecimal(s)) + "s"
  }
}

/// Stdout went away (e.g. `| head`): stop quietly.
struct StdoutClosed: Error {}
