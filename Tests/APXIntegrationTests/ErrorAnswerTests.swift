import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// An error status's body is an answer: on stdout, formatted as any answer (as curl, xh and
/// `gh api` print it), with the status line and hint on stderr and exit 4 or 5.
@Suite struct ErrorAnswerTests {
  @Test func a404BodyIsPrintedOnStdoutWithTheStatusOnStderr() async throws {
    try await withDemoServer { server in
      let url = server.httpBaseURL + "/api/v2/imports/nope"
      let result = try await APXProcess.run(["call", url])
      #expect(result.status == 4, "\(result.stderr)")
      let body = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      let error = body?["error"] as? [String: Any]
      #expect(error?["message"] as? String == "no import job with id 'nope'", "\(result.stdout)")
      #expect(result.stderr.contains("answered 404 Not Found"), "\(result.stderr)")
      #expect(!result.stderr.contains("no import job"), "the body is not repeated on stderr: \(result.stderr)")

      let raw = try await APXProcess.run(["call", url, "-o", "raw"])
      #expect(raw.status == 4)
      #expect(raw.stdout.hasPrefix("{\"error\":"), "\(raw.stdout)")
    }
  }

  @Test func selectAppliesWhereItFitsAndTheWholeBodyIsPrintedWhereItDoesNot() async throws {
    try await withDemoServer { server in
      let url = server.httpBaseURL + "/api/v2/imports/nope"
      let fits = try await APXProcess.run(["call", url, "--select", ".error.code", "-r"])
      #expect(fits.status == 4, "the status decides the exit code: \(fits.stderr)")
      #expect(fits.stdout == "not_found\n")
      let misses = try await APXProcess.run(["call", url, "--select", ".items[0].id"])
      #expect(misses.status == 4, "a selection that does not fit an error body is not exit 9: \(misses.stderr)")
      #expect(misses.stdout.contains("no import job with id 'nope'"), "\(misses.stdout)")
    }
  }

  @Test func aServerErrorBodyIsPrintedOnceAfterTheLastAttempt() async throws {
    try await withDemoServer { server in
      let result = try await APXProcess.run([
        "call", server.httpBaseURL + "/api/v2/flaky", "key==answers", "fail==5", "retry_after==0", "--retry", "2",
      ])
      #expect(result.status == 5, "\(result.stderr)")
      #expect(server.stats.flakyAttempts["answers"] == 2)
      let lines = result.stdout.split(separator: "\n")
      #expect(lines.count == 1, "one body, the last attempt's: \(result.stdout)")
      #expect(result.stdout.contains("attempt 2 of 5 planned failures"), "\(result.stdout)")
    }
  }

  @Test func anOutputFileNeverReceivesAnErrorBody() async throws {
    try await withDemoServer { server in
      let file = try temporaryFile("answer.json", "kept")
      let result = try await APXProcess.run(["call", server.httpBaseURL + "/api/v2/imports/nope", "-O", file])
      #expect(result.status == 4)
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.contains("no import job with id 'nope'"), "the body stays in the message: \(result.stderr)")
      #expect(try String(contentsOfFile: file, encoding: .utf8) == "kept")
    }
  }
}
