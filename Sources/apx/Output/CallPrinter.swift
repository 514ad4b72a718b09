import APXCore
import APXRuntime
import Foundation

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
  }

  private enum BodyMode {
    case undecided
    /// Bytes as they arrive.
    case raw
    /// JSON re-formatted on the fly, constant memory.
    case stream(JSONStreamFormatter)
    /// Collected whole for --select or tables.
    case buffered([UInt8])
    /// NDJSON / JSON Lines: each complete line printed as a stream item as soon as it arrives.
    case lines([UInt8])
  }

  /// Longest NDJSON line held while waiting for its end (a parser size limit).
  static let maxLineBytes = 64 * 1024 * 1024

  let context: Context
  let settings: Settings
  private var mode: BodyMode = .undecided
  private var contentType = ""
  /// Stream items printed so far.
  private(set) var messageCount = 0
  /// Set once the transport signals chunk ends (`.batchEnd`).
  private var flushesPerBatch = false
  /// Reused output buffer for stream items.
  private var scratch: [UInt8] = []
  // --- progress display (SSE watch): draws on stderr only when it is a terminal ---
  private lazy var progressDisplay = ProgressDisplay(
    stderr: context.stderr, enabled: context.stderrIsTerminal, stdoutIsTerminal: context.stdoutIsTerminal)
  // --- end progress display ---

  init(context: Context, settings: Settings) {
    self.context = context
    self.settings = settings
  }

  func receive(_ event: CallEvent) throws {
    // --- progress display: clears its line before this event's output, redraws after ---
    progressDisplay.willHandle(event)
    defer { progressDisplay.didHandle(event) }
    // --- end progress display ---
    switch event {
    case .requestSent(let method, let url, let headers, let attempt):
      guard settings.verbose else { return }
      var text = "> \(method) \(url)" + (attempt > 1 ? "  (attempt \(attempt))" : "") + "\n"
      for h in headers { text += "> \(h.name): \(h.value)\n" }
      context.stderr.write(text + ">\n")
      context.stderr.flush()
    case .responseHead(let status, let version, let headers):
      contentType = headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
      mode = .undecided
      guard settings.verbose else { return }
      var text = "< \(version) \(status)\n"
      for h in headers { text += "< \(h.name): \(h.value)\n" }
      context.stderr.write(text + "<\n")
      context.stderr.flush()
    case .bodyChunk(let bytes):
      try body(bytes)
    case .bodyEnd:
      try finishBody()
    case .message(let value):
      try printMessage(value)
    case .trailers(let fields):
      guard settings.verbose else { return }
      context.stderr.write(fields.map { "< (trailer) \($0.name): \($0.value)\n" }.joined())
    case .retrying(let attempt, let after, let reason):
      context.warn("apx: \(reason); retrying in \(Self.seconds(after)) (attempt \(attempt))")
    case .reconnecting(let after, let reason, let lastEventID):
      context.warn("apx: \(reason); reconnecting in \(Self.seconds(after))" + (lastEventID.map { " from \($0)" } ?? ""))
    case .fellBackToPolling(let endpoint, let interval):
      context.warn("apx: the stream keeps failing; polling \(endpoint) every \(Self.seconds(interval)) instead")
    case .progress:
      break  // drawn by the progress display when stderr is a terminal
    case .note(let text):
      context.warn("apx: \(text)")
    case .batchEnd:
      // From now on this stream says when a chunk is done: flush then, not per item.
      flushesPerBatch = true
      context.stdout.flush()
      if context.stdout.closed { throw StdoutClosed() }
    }
  }

  private var isJSONBody: Bool {
    contentType.contains("json") || contentType.isEmpty
  }

  /// `application/x-ndjson`, `application/jsonl` and the like: one JSON text per line.
  private var isLineStream: Bool {
    let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    return [
      "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines",
      "application/jsonlines",
    ].contains(type)
  }

  private func decideMode(_ first: BodyChunk) {
    if settings.format == .raw {
      mode = .raw
    } else if isLineStream && settings.format != .table {
      mode = .lines([])
    } else if settings.select != nil || settings.format == .table {
      mode = .buffered([])
    } else if isJSONBody || Self.looksLikeJSON(first) {
      let style: JSONOutputStyle = (settings.pretty && settings.format != .ndjson) ? .pretty : .compact
      mode = .stream(JSONStreamFormatter(style: style, colors: settings.colors))
    } else {
      mode = .raw
    }
  }

  private func body(_ bytes: BodyChunk) throws {
    if case .undecided = mode { decideMode(bytes) }
    switch mode {
    case .undecided, .raw:
      bytes.withUnsafeBytes { context.stdout.write(raw: $0) }
    case .stream(var formatter):
      var out: [UInt8] = []
      out.reserveCapacity(bytes.count + bytes.count / 2)
      mode = .undecided  // release the copy while mutating
      do {
        // A Result, not a typed-throws closure: Swift 6.3.1's IRGen crashes on the latter here.
        let fed = bytes.withUnsafeBytes { raw in
          Result { () throws(JSONSyntaxError) in try formatter.feed(raw, into: &out) }
        }
        try fed.get()
      } catch {
        // Not JSON after all (or broken): show what came, unformatted.
        context.stdout.write(out)
        bytes.withUnsafeBytes { context.stdout.write(raw: $0) }
        mode = .raw
        context.warn("apx: the response is not valid JSON (\(error)); printing it as it came")
        return
      }
      mode = .stream(formatter)
      context.stdout.write(out)
    case .buffered(var all):
      mode = .undecided
      all.append(contentsOf: bytes)
      mode = .buffered(all)
    case .lines(var pending):
      mode = .undecided
      pending.append(contentsOf: bytes)
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
    }
    if context.stdout.closed { throw StdoutClosed() }
  }

  /// One NDJSON line as a stream item (blank lines are skipped; a line that is not JSON is printed as it came).
  private func printLine(_ line: ArraySlice<UInt8>) throws {
    var line = line
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    guard line.contains(where: { ![0x20, 0x09].contains($0) }) else { return }
    do {
      try printMessage(try JSONParser.parse(Array(line)))
    } catch let error as JSONSyntaxError {
      context.warn("apx: a line of the response is not JSON (\(error)); printing it as it came")
      context.stdout.write(Array(line) + [UInt8(ascii: "\n")])
      context.stdout.flush()
    }
  }

  private func finishBody() throws {
    switch mode {
    case .undecided:
      if settings.select != nil || settings.format == .table { try printBuffered([]) }
    case .raw:
      break
    case .stream(var formatter):
      var out: [UInt8] = []
      do {
        try formatter.finish(into: &out)
      } catch {
        context.stdout.write(out)
        context.warn("apx: the response ended in the middle of a JSON value (\(error))")
        break
      }
      context.stdout.write(out)
    case .buffered(let all):
      try printBuffered(all)
    case .lines(let pending):
      try printLine(pending[...])
    }
    mode = .undecided
    context.stdout.flush()
  }

  private func printBuffered(_ bytes: [UInt8]) throws {
    let value: JSONValue
    do {
      value = try JSONParser.parse(bytes)
    } catch {
      throw APXError(
        .expectation, "cannot apply \(settings.select != nil ? "--select" : "-o table"): the response is not JSON",
        hint: "use -o raw to see it", cause: "\(error)")
    }
    let results = try settings.select.map { try $0.select(in: value) } ?? [value]
    if settings.format == .table {
      context.stdout.write(TableFormatter().format(results.count == 1 ? results[0] : .array(results)))
      return
    }
    for result in results { writeValue(result) }
  }

  private func printMessage(_ value: JSONValue) throws {
    messageCount += 1
    if let select = settings.select {
      for result in try select.select(in: value) { writeValue(result, forceCompact: settings.format != .json) }
    } else {
      writeValue(value, forceCompact: settings.format != .json)
    }
    // Streams that signal chunk ends are flushed there (a write per event cost 13% of
    // a 1M-event run); others are flushed per item so slow streams show up live.
    if !flushesPerBatch { context.stdout.flush() }
    if context.stdout.closed { throw StdoutClosed() }
  }

  private func writeValue(_ value: JSONValue, forceCompact: Bool = false) {
    if settings.format == .raw, case .string(let s) = value {
      context.stdout.write(s + "\n")
      return
    }
    let pretty = settings.pretty && settings.format != .ndjson && !forceCompact
    scratch.removeAll(keepingCapacity: true)
    JSONPrinter(style: pretty ? .pretty : .compact, colors: settings.colors).write(value, into: &scratch)
    scratch.append(UInt8(ascii: "\n"))
    context.stdout.write(scratch[...])
  }

  static func looksLikeJSON(_ bytes: some Collection<UInt8>) -> Bool {
    guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return false }
    return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
  }

  static func seconds(_ s: Double) -> String {
    s.rounded() == s ? "\(Int(s))s" : String(format: "%.1fs", s)
  }
}

/// Stdout went away (e.g. `| head`): stop quietly.
struct StdoutClosed: Error {}
