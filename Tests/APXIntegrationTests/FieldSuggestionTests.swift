import Foundation
import Testing

/// An unknown gRPC field suggests each near name once: its proto and JSON names are both
/// candidates, and for `id` they are the same.
@Suite("field suggestions")
struct FieldSuggestionTests {
  @Test func aMisspeltFieldSuggestsItsNameOnce() async throws {
    let r = try await APXProcess.run(["call", "--demo", "classnotes.lessons.get", "idd=les_0001"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("did you mean \"id\"?"), "\(r.stderr)")
    #expect(!r.stderr.contains("\"id\" or \"id\""), "\(r.stderr)")
  }
}
