import Foundation
import Testing

/// The committed completion scripts match what the CLI generates now.
@Suite("completion scripts")
struct CompletionScriptTests {
  @Test(arguments: ["bash", "zsh", "fish"])
  func committedScriptIsCurrent(shell: String) async throws {
    let r = try await APXProcess.run(["completions", shell])
    #expect(r.status == 0, "\(r.stderr)")
    let committed = try String(
      contentsOf: APXProcess.packageRoot.appendingPathComponent("completions/apx.\(shell)"), encoding: .utf8)
    #expect(r.stdout == committed, "completions/apx.\(shell) is stale: run scripts/generate-completions.sh")
  }

  @Test func endpointNamesCompleteFromTheRegistry() async throws {
    // ArgumentParser's custom completion entry point, as the generated scripts call it.
    let r = try await APXProcess.run([
      "---completion", "call", "--", "positional@0", "2", "9", "apx", "call", "books.imp",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let words = r.stdout.split(separator: "\n").map(String.init)
    #expect(words.contains("books.imports.create"))
    #expect(words.contains("books.imports.watch"))
    #expect(!words.contains("books.capabilities.get"))
  }

  @Test func unknownShellIsAUsageError() async throws {
    let r = try await APXProcess.run(["completions", "tcsh"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("bash, zsh or fish"))
  }
}
