import Foundation
import Testing

/// Bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE and its kin) in a registry's text are
/// shown escaped by `apx list`, as JSON and as a table: raw, they turn what follows around on
/// screen, so a description could read as something it is not.
@Suite("bidi controls in apx list")
struct BidiControlTests {
  static let controls: [Unicode.Scalar] = ["\u{202E}", "\u{2066}", "\u{200F}", "\u{061C}"]

  @Test func listEscapesThemInJSONAndTables() async throws {
    let description = "safe \u{202E}txt.exe\u{2066}x\u{200F}y\u{061C}z"
    let registry = try TestRegistry.make(
      """
      {"api": "bidi", "description": "\(description)",
       "environments": {"demo": {"base_url": "http://127.0.0.1:9"}},
       "endpoints": {"get": {"kind": "rest", "path": "/x", "description": "\(description)"}}}
      """)
    for flags in [[], ["-o", "table"], ["-o", "json"]] {
      for target in [[], ["bidi"]] {
        let r = try await APXProcess.run(["list"] + target + ["--registry", registry] + flags)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("txt.exe"), "\(flags) \(target): \(r.stdout)")
        #expect(
          !r.stdout.unicodeScalars.contains { Self.controls.contains($0) },
          "\(flags) \(target): \(r.stdout.debugDescription)")
        #expect(r.stdout.lowercased().contains("202e"), "\(flags) \(target): \(r.stdout)")
      }
    }
  }
}
