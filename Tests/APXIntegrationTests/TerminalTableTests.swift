import Foundation
import Testing

/// Tables on a real 80-column terminal (tmux): every line fits, cut with `…`, nothing wraps.
@Suite("tables on a terminal")
struct TerminalTableTests {
  @Test(.enabled(if: TmuxTerminal.tmux != nil, TmuxTerminal.missing))
  func tablesFitAnEightyColumnTerminal() async throws {
    let folder = try TerminalProgressTests.workFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let terminal = try await TerminalProgressTests.startBash(in: folder, width: 80)
    do {
      // `apx list` prints a table on a terminal; the books API has long descriptions.
      let screen = try await TerminalProgressTests.runLine("apx list books", on: terminal, mark: "END")
      #expect(screen.contains("\nEND-0"), "\(screen)")
      let joined = try await terminal.screen(joined: true)
      let rows = joined.split(separator: "\n").filter { !$0.hasPrefix("$ ") && !$0.hasPrefix("END-") }
      #expect(rows.count > 3, "\(joined)")
      for row in rows { #expect(row.count <= 80, "wider than the terminal (\(row.count) columns): \(row)") }
      #expect(joined.contains("…"), "long cells are cut with …:\n\(joined)")
    } catch {
      await terminal.stop()
      throw error
    }
    await terminal.stop()
  }
}
