import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// Progress bars as a user sees them on a terminal: a bash in tmux
/// runs apx, the test logs every byte written to the terminal and reads the screen. An upload
/// draws its bar and erases it before the answer is printed; Ctrl-C during a download or a
/// recipe loop erases the bar and leaves the prompt on a clean line.
@Suite("progress on a terminal", .serialized, .timeLimit(.minutes(5)))
struct TerminalProgressTests {
  /// A CSV of exactly 30,000,000 bytes that the demo's import accepts.
  static func bigCSV(in folder: URL) throws -> URL {
    let header = "title,notes\n"
    let row = "A book," + String(repeating: "n", count: 92) + "\n"  // 100 bytes
    var text = header + String(repeating: row, count: (30_000_000 - header.utf8.count) / row.utf8.count)
    text += String(repeating: "x", count: 30_000_000 - text.utf8.count - 1) + "\n"
    let file = folder.appendingPathComponent("big.csv")
    try Data(text.utf8).write(to: file)
    return file
  }

  static func workFolder() throws -> URL {
    let folder = TestScratch.root.appendingPathComponent("apx-progress-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// bash without configuration, a `$ ` prompt, the demo registry and the built apx on PATH.
  static func startBash(in folder: URL, registry: String = APXProcess.endpoints, width: Int = 120) async throws
    -> TmuxTerminal
  {
    let environment = [
      "HOME=\(folder.path)", "TERM=xterm", "LANG=C.UTF-8", "NO_COLOR=1", "APX_REGISTRY=\(registry)",
      "APX_STATE_DIR=\(folder.path)/state", "PATH=\(APXProcess.binary.deletingLastPathComponent().path):/usr/bin:/bin",
    ]
    let terminal = try await TmuxTerminal.start(
      command: "/bin/bash --norc --noprofile", environment: environment, folder: folder, width: width, height: 40,
      name: "apx-progress")
    // Typed once bash reads its line (keys typed earlier are echoed twice), then a clear screen.
    _ = try await terminal.waitForScreen { $0.contains("$") || $0.contains("#") }
    try await terminal.type("PS1='$ '; clear")
    try await terminal.press("Enter")
    _ = try await terminal.waitForScreen { $0.hasPrefix("$ ") }
    return terminal
  }

  /// Runs `line` in the terminal's shell and waits (bounded) for it to end; returns the
  /// screen, which ends with `END-<exit status>`.
  static func runLine(_ line: String, on terminal: TmuxTerminal, mark: String) async throws -> String {
    try await terminal.type(line + "; echo \(mark)-$?")
    try await terminal.press("Enter")
    return try await terminal.waitForScreen(attempts: 1200) { $0.contains("\n\(mark)-") }
  }

  /// Presses Ctrl-C, waits for the shell's prompt, and asks how the command ended: returns the
  /// screen, which then holds `END-<exit status>` below the prompt line `$ echo END-$?`.
  static func interrupt(_ terminal: TmuxTerminal) async throws -> String {
    try await terminal.press("C-c")
    // The shell's next prompt starts a line of its own (`$?` then says how apx ended).
    _ = try await terminal.waitForPrompt()
    try await terminal.type("echo END-$?")
    try await terminal.press("Enter")
    return try await terminal.waitForScreen(attempts: 400) { $0.contains("\nEND-") }
  }

  /// The text written to the terminal since `offset` bytes of the log.
  static func logged(_ log: URL, from offset: Int) -> String {
    let data = (try? Data(contentsOf: log)) ?? Data()
    return String(decoding: data.dropFirst(offset), as: UTF8.self)
  }

  /// Lines of the screen that hold a transfer bar.
  static func barLines(_ screen: String) -> [Substring] {
    screen.split(separator: "\n").filter { $0.contains("[#") || $0.contains("[..") || $0.contains("%  ") }
  }

  /// Runs `body` with the demo backend and a bash in `folder` whose terminal output is logged to
  /// `folder/terminal.log` (the log's URL is handed over); the terminal is stopped afterwards.
  static func inLoggedBash(
    in folder: URL, _ body: (DemoServer, TmuxTerminal, URL) async throws -> Void
  ) async throws {
    let log = folder.appendingPathComponent("terminal.log")
    try await withDemoServer { server in
      let terminal = try await Self.startBash(in: folder)
      do {
        try await terminal.log(to: log)
        try await body(server, terminal, log)
      } catch {
        await terminal.stop()
        throw error
      }
      await terminal.stop()
    }
  }

  @Test(.enabled(if: TmuxTerminal.tmux != nil, TmuxTerminal.missing))
  func anUploadShowsItsBarThenErasesIt() async throws {
    let folder = try Self.workFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let csv = try Self.bigCSV(in: folder)
    try await Self.inLoggedBash(in: folder) { server, terminal, log in
      // A registry file parameter (the raw body), then an ad-hoc multipart file part.
      let lines = [
        "apx call books.imports.create csv=@big.csv row_delay_ms=0 --base-url \(server.httpBaseURL)",
        "apx call \(server.httpBaseURL)/api/v2/imports --form file@big.csv",
      ]
      for (index, line) in lines.enumerated() {
        let offset = (try? Data(contentsOf: log).count) ?? 0
        let screen = try await Self.runLine(line, on: terminal, mark: "END\(index)")
        #expect(screen.contains("END\(index)-0"), "\(line) failed:\n\(screen)")
        let written = Self.logged(log, from: offset)
        // Drawn: bytes of the known total, and percent.
        #expect(written.contains(" MB/30.0 MB"), "no upload bar: \(written)")
        #expect(written.contains("100%"), "the bar never reached 100%: \(written)")
        // Erased before the answer: the last bar is followed by a line erase, then the JSON.
        let lastBar = try #require(written.range(of: "MB/30.0 MB", options: .backwards))
        let answer = try #require(written.range(of: "job_id"), "no answer: \(written)")
        #expect(lastBar.upperBound < answer.lowerBound, "the answer was printed before the bar ended")
        let between = written[lastBar.upperBound..<answer.lowerBound]
        #expect(between.contains("\r\u{1B}[2K"), "the bar was not erased before the answer")
        #expect(Self.barLines(screen).isEmpty, "a bar is left on screen:\n\(screen)")
        try await terminal.type("clear")
        try await terminal.press("Enter")
      }
    }
  }

  @Test func anUploadDrawsNothingWhenStderrIsNotATerminal() async throws {
    let folder = try Self.workFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let csv = try Self.bigCSV(in: folder)
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", "books.imports.create", "csv=@\(csv.path)", "row_delay_ms=0", "--base-url", server.httpBaseURL,
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("job_id"), "\(r.stdout)")
      #expect(!r.stderr.contains("%") && !r.stderr.contains("MB") && !r.stderr.contains("\u{1B}"), "\(r.stderr)")
    }
  }

  /// A gRPC stream whose endpoint declares `progress` (classnotes.lessons.status: `.progress` of
  /// each message) draws the bar an SSE watch draws; the finished bar stays on its own line.
  @Test(.enabled(if: TmuxTerminal.tmux != nil, TmuxTerminal.missing))
  func aGRPCStreamDrawsItsDeclaredProgress() async throws {
    let folder = try Self.workFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try await Self.inLoggedBash(in: folder) { server, terminal, log in
      let line =
        "apx call classnotes.lessons.status lesson_id=les_0001 count:=4 delay_ms:=200"
        + " --base-url grpc://127.0.0.1:\(server.grpcPort) > out.ndjson"
      let screen = try await Self.runLine(line, on: terminal, mark: "END")
      #expect(screen.contains("END-0"), "\(line) failed:\n\(screen)")
      let written = Self.logged(log, from: 0)
      #expect(written.contains("[#"), "no progress bar: \(written)")
      #expect(written.contains(" 33%"), "no bar for the second message: \(written)")
      #expect(screen.contains("100%"), "the finished bar is not on screen:\n\(screen)")
      let out = try String(contentsOf: folder.appendingPathComponent("out.ndjson"), encoding: .utf8)
      #expect(out.split(separator: "\n").count == 4, "\(out)")
    }
  }

  @Test(.enabled(if: TmuxTerminal.tmux != nil, TmuxTerminal.missing))
  func ctrlCErasesTheBarAndLeavesACleanPrompt() async throws {
    let folder = try Self.workFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try await Self.inLoggedBash(in: folder) { server, terminal, log in
      // 1 GB at 64 KiB every 100 ms: the download lasts far longer than the test.
      let url = "\(server.httpBaseURL)/_demo/drip?size=1000000000&every_ms=100"
      try await terminal.type("apx call '\(url)' -o raw > body.bin")
      try await terminal.press("Enter")
      let drawing = try await terminal.waitForScreen(attempts: 400) { $0.contains("/1.0 GB") }
      #expect(drawing.contains("/1.0 GB"), "no download bar:\n\(drawing)")
      let screen = try await Self.interrupt(terminal)
      #expect(screen.contains("\n$ echo END-$?\n"), "the prompt is not on a clean line:\n\(screen)")
      #expect(screen.contains("\nEND-130"), "Ctrl-C should end apx with 130:\n\(screen)")
      #expect(Self.barLines(screen).isEmpty && !screen.contains("GB"), "a bar is left on screen:\n\(screen)")
    }
  }

  @Test(.enabled(if: TmuxTerminal.tmux != nil, TmuxTerminal.missing))
  func ctrlCDuringARecipeLoopErasesItsBar() async throws {
    let folder = try Self.workFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try await withDemoServer { server in
      let registry = folder.appendingPathComponent("registry")
      try FileManager.default.createDirectory(at: registry, withIntermediateDirectories: true)
      try Data(
        #"""
        {"api": "slow", "environments": {"demo": {"base_url": "\#(server.httpBaseURL)"}}, "default_environment": "demo",
         "endpoints": {"stall": {"kind": "rest", "path": "/_demo/stall", "params": {"ms": {"in": "query", "type": "integer"}}}}}
        """#.utf8
      ).write(to: registry.appendingPathComponent("slow.json"))
      // 200 calls of 300 ms each, one at a time: the loop's bar is up long before it ends.
      let items = (1...200).map(String.init).joined(separator: ",")
      try Data(
        #"""
        {"name": "slow-loop", "steps": [{"id": "loop", "call": "slow.stall", "with": {"ms": 300},
          "foreach": {"over": [\#(items)], "as": "n", "concurrency": 1}}]}
        """#.utf8
      ).write(to: folder.appendingPathComponent("loop.json"))
      let terminal = try await Self.startBash(in: folder, registry: registry.path)
      do {
        try await terminal.type("apx run loop.json")
        try await terminal.press("Enter")
        let drawing = try await terminal.waitForScreen(attempts: 400) { $0.contains("/200") }
        #expect(drawing.contains("/200"), "no loop bar:\n\(drawing)")
        let screen = try await Self.interrupt(terminal)
        #expect(screen.contains("\nEND-130"), "Ctrl-C should end the run with 130:\n\(screen)")
        #expect(screen.contains("was interrupted"), "\(screen)")
        // The loop's own line says it was stopped, as a finished step's line says how it ended.
        #expect(screen.contains("! loop  slow.stall  interrupted  "), "\(screen)")
        #expect(screen.contains("\n$ echo END-$?\n"), "the prompt is not on a clean line:\n\(screen)")
        #expect(Self.barLines(screen).isEmpty && !screen.contains("/200"), "a bar is left on screen:\n\(screen)")
      } catch {
        await terminal.stop()
        throw error
      }
      await terminal.stop()
    }
  }
}
