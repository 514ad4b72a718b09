import Foundation
import Testing

/// `-r`, `--select` with `-o raw`, gRPC answers printed like bodies,
/// `-o table` for streams and gRPC, and tables that fit the terminal. Terminal cases run apx
/// under `script(1)`, which gives it a pseudo-terminal as stdout.
@Suite("output formatting")
struct OutputFormattingTests {
  @Test func rawOutputDropsTheQuotesOfStrings() async throws {
    let quoted = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "--select", ".api"])
    #expect(quoted.status == 0, "\(quoted.stderr)")
    #expect(quoted.stdout == "\"books\"\n")
    let raw = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "--select", ".api", "-r"])
    #expect(raw.status == 0, "\(raw.stderr)")
    #expect(raw.stdout == "books\n")
    // Not a string: printed as JSON, as jq -r does.
    let list = try await APXProcess.run(
      ["call", "--demo", "books.capabilities.get", "--select", ".formats", "--raw-output"])
    #expect(list.stdout == "[\"text/csv\"]\n", "\(list.stdout)")
  }

  @Test func selectWorksWithOutputRaw() async throws {
    let r = try await APXProcess.run(
      ["call", "--demo", "books.capabilities.get", "--select", ".upload_encodings[]", "-o", "raw"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "text/csv\nmultipart/form-data\n", "\(r.stdout)")
  }

  /// The request was sent: a path that does not fit the answer is an unusable response (9), not
  /// a usage error (2, nothing happened); one that does not parse is still a usage error.
  @Test func aSelectThatDoesNotFitTheAnswerIsExit9() async throws {
    let r = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "--select", ".api.name"])
    #expect(r.status == 9, "\(r.stderr)")
    let bad = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "--select", ".api["])
    #expect(bad.status == 2, "\(bad.stderr)")
  }

  @Test func rawOutputWithTableIsAUsageError() async throws {
    let r = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "-r", "-o", "table"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("-r/--raw-output"), "\(r.stderr)")
    let list = try await APXProcess.run(["list", "-r", "-o", "table"])
    #expect(list.status == 2)
  }

  @Test func grpcUnaryAnswerPrintsAsATable() async throws {
    let r = try await APXProcess.run(["call", "--demo", "classnotes.lessons.get", "id=les_0001", "-o", "table"])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 3, "\(r.stdout)")
    #expect(lines.first?.hasPrefix("id") == true, "\(r.stdout)")
    #expect(r.stdout.contains("les_0001"))
  }

  @Test func streamItemsPrintAsOneTableAtTheEnd() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["call", server.httpBaseURL + "/_demo/lines?n=3&type=ndjson", "-o", "table", "--select", ".n"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == "value\n-----\n    1\n    2\n    3\n", "\(r.stdout)")
    }
  }

  /// Runs apx with a pseudo-terminal as stdout and stderr (`PseudoTerminal`); the terminal turns
  /// "\n" into "\r\n". Nil, having said why, where script(1) is missing.
  static func onTerminal(_ arguments: [String], environment: [String: String] = [:]) async throws -> APXResult? {
    if let why = PseudoTerminal.unavailable {
      print(why)
      return nil
    }
    var result = try await PseudoTerminal.run(
      PseudoTerminal.shellQuoted([APXProcess.binary.path] + arguments),
      environment: environment.merging(["NO_COLOR": "1"]) { $1 })
    result.stdout = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    return result
  }

  @Test func grpcUnaryAnswerIsPrettyOnATerminal() async throws {
    guard let r = try await Self.onTerminal(["call", "--demo", "classnotes.lessons.get", "id=les_0001"]) else { return }
    #expect(r.status == 0, "\(r.stdout)")
    #expect(r.stdout.hasPrefix("{\n  \""), "not pretty: \(r.stdout)")
  }

  @Test func tablesFitTheTerminalWidth() async throws {
    guard let r = try await Self.onTerminal(["list", "books"], environment: ["COLUMNS": "60"]) else { return }
    #expect(r.status == 0, "\(r.stdout)")
    let lines = r.stdout.split(separator: "\n").filter { !$0.hasPrefix("apx:") }
    #expect(lines.count > 3, "\(r.stdout)")
    for line in lines { #expect(line.unicodeScalars.count <= 60, "too wide: \(line)") }
    #expect(r.stdout.contains("…"), "\(r.stdout)")
  }
}
