import APXCore
import APXDemoServer
import Foundation
import Synchronization
import Testing

@testable import APXRuntime

/// A recipe step that sends a file shows the byte bar a single `apx call` shows, on a terminal only, and not for a `foreach`, whose
/// bar counts items.
@Suite struct RecipeUploadProgressTests {
  static func recipe(foreach: Bool) throws -> Recipe {
    let loop = foreach ? #", "foreach": { "over": [1], "as": "it" }"# : ""
    return try RecipeLoader.load(
      Array(
        """
        {
          "name": "upload",
          "inputs": { "csv": { "type": "file", "required": true } },
          "steps": [
            { "id": "up", "call": "uploads.raw", "with": { "csv": "${input.csv}", "row_delay_ms": 0 },
              "expect": { "status": 202 }\(loop) }
          ]
        }
        """.utf8), file: "upload.json")
  }

  /// Runs the recipe against the demo with a reporter; returns what it drew on "stderr".
  static func run(_ recipe: Recipe, csv: String, terminal: Bool) async throws -> [String] {
    let drawn = Mutex<[String]>([])
    let reporter = RecipeRunReporter(
      status: { text in drawn.withLock { $0.append(text) } }, events: nil, terminal: terminal, colors: false,
      mask: SecretMask(), stepIDs: ["up"])
    try await withDemo { server, session in
      let runner = RecipeRunner(
        recipe: recipe,
        targets: [
          "uploads": RecipeTarget(
            api: try registry(UploadProgressTests.api), baseURL: server.httpBaseURL, environmentName: "demo")
        ],
        executor: Executor(session: session, environment: [:]), options: RecipeRunOptions(), journal: nil,
        observer: reporter, runID: "run-upload")
      let result = try await runner.run(inputs: .object([JSONMember("csv", .string(csv))]))
      #expect(result.failure == nil, "\(result.failure?.message ?? "")")
    }
    return drawn.withLock { $0 }
  }

  @Test func aFileStepDrawsBytesSentThenItsLine() async throws {
    let csv = try UploadProgressTests.csv(rows: 30_000)
    defer { try? FileManager.default.removeItem(atPath: csv) }
    let drawn = try await Self.run(try Self.recipe(foreach: false), csv: csv, terminal: true)
    let bars = drawn.filter { $0.contains("… up  [") }
    let last = try #require(bars.last, "no upload bar in \(drawn)")
    #expect(last.contains("3.0 MB/3.0 MB  100%"), "\(last)")
    #expect(bars.allSatisfy { $0.contains(" MB/") || $0.contains(" kB/") }, "\(bars)")
    // The step's line erases the bar first.
    let line = try #require(drawn.last)
    #expect(line.hasPrefix("\r\u{1B}[2K") && line.contains("up  uploads.raw  status 202"), "\(line)")
  }

  @Test func noBarOffATerminalOrForAForeach() async throws {
    let csv = try UploadProgressTests.csv(rows: 30_000)
    defer { try? FileManager.default.removeItem(atPath: csv) }
    let plain = try await Self.run(try Self.recipe(foreach: false), csv: csv, terminal: false)
    #expect(!plain.contains { $0.contains("MB") || $0.contains("\u{1B}") }, "\(plain)")
    let loop = try await Self.run(try Self.recipe(foreach: true), csv: csv, terminal: true)
    #expect(!loop.contains { $0.contains(" MB/") }, "\(loop)")
  }

  @Test func byteProgressText() {
    let step = RecipeStep(id: "up", call: "a.b")
    let p = RecipeStatusText.LoopProgress(done: 12_000_000, total: 30_000_000, elapsed: 2, bytes: true)
    #expect(
      RecipeStatusText.progress(step: step, p, width: 10)
        == "\r\u{1B}[2K… up  [####......]  12.0 MB/30.0 MB  40%  6.0 MB/s  ETA 3s")
    let unknown = RecipeStatusText.LoopProgress(done: 2_500_000, total: nil, elapsed: 0.5, bytes: true)
    #expect(RecipeStatusText.progress(step: step, unknown) == "\r\u{1B}[2K… up  2.5 MB sent")
  }
}
