import Testing

/// `apx manual` prints a man page built from every command's help.
@Suite("apx manual")
struct ManualPageTests {
  @Test func everyCommandHasASectionAndNoHelpLineIsReadAsARequest() async throws {
    let r = try await APXProcess.run(["manual"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix(".TH APX 1"))
    for command in [
      "CALL", "LIST", "DESCRIBE", "VALIDATE", "IMPORT OPENAPI", "IMPORT GRPC", "DEMO", "COMPLETIONS", "AUTH", "RUN",
    ] {
      #expect(r.stdout.contains(".SH COMMAND: APX \(command)\n"), "no section for apx \(command.lowercased())")
    }
    // Options keep their two hyphens as roff's \- so they copy and paste from `man`.
    #expect(r.stdout.contains("\\-\\-timeout"))
    // Every line that starts with a dot is one of the page's own macros, never help text.
    let macros: Set<String> = [".TH", ".SH", ".nf", ".fi", ".sp", ".B", ".I"]
    for line in r.stdout.split(separator: "\n") where line.hasPrefix(".") {
      #expect(macros.contains(String(line.split(separator: " ").first ?? "")), "stray request: \(line)")
    }
  }
}
