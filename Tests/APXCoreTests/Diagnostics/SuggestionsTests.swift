import APXCore
import Testing

@Suite struct SuggestionsTests {
  /// A name given twice (a gRPC field's proto and JSON names are often the same) is suggested once.
  @Test func aCandidateListedTwiceIsSuggestedOnce() {
    #expect(Suggestions.hint(for: "idd", in: ["id", "title", "id"]) == "did you mean \"id\"?")
  }
}
