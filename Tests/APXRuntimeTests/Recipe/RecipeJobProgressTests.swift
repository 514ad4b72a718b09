import APXCore
import Synchronization
import Testing

@testable import APXRuntime

/// A step that watches a job draws the job's own progress (the endpoint's declared fields) as
/// `apx call` draws it: percent, counts, rate and ETA, not a count of items.
@Suite struct RecipeJobProgressTests {
  static func drawn(_ notes: [RecipeCallNote], terminal: Bool = true) -> [String] {
    let drawn = Mutex<[String]>([])
    let reporter = RecipeRunReporter(
      status: { text in drawn.withLock { $0.append(text) } }, events: nil, terminal: terminal, colors: false,
      mask: SecretMask(), stepIDs: ["watch"])
    let step = RecipeStep(id: "watch", call: "books.imports.watch")
    for note in notes { reporter.callNote(step, note: note) }
    return drawn.withLock { $0 }
  }

  @Test func countsAreDrawnWithTheirPercent() throws {
    let bar = try #require(Self.drawn([.progress(fraction: nil, done: 450, total: 1000)]).last)
    #expect(bar == "\r\u{1B}[2K… watch  [#######..........]  45%  450/1000", "\(bar)")
  }

  @Test func aFractionAloneIsAPercentNotACount() throws {
    let bar = try #require(Self.drawn([.progress(fraction: 0.35, done: nil, total: nil)]).last)
    #expect(bar.contains("35%") && !bar.contains("/100") && !bar.contains("item"), "\(bar)")
  }

  @Test func nothingIsDrawnOffATerminal() {
    #expect(Self.drawn([.progress(fraction: 0.5, done: 5, total: 10)], terminal: false).isEmpty)
  }
}
