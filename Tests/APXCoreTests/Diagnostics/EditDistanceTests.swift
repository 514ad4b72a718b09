import APXCore
import Testing

@Suite("Edit distance")
struct EditDistanceTests {
  @Test func countsInsertionsDeletionsAndSubstitutions() {
    #expect(Suggestions.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)) == 3)
    #expect(Suggestions.editDistance(Array("flaw".utf8), Array("lawn".utf8)) == 2)
    #expect(Suggestions.editDistance([Int](), [1, 2]) == 2)
    #expect(Suggestions.editDistance([1, 2], [1, 2]) == 0)
  }
}
