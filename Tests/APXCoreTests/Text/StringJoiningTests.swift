import APXCore
import PropertyBased
import Testing

/// `[String].joined(separator:)` resolves to APXCore's overload; it must give what the
/// standard library's gives (reached here through a type that is not an `Array`).
@Suite struct StringJoiningTests {
  @Test func agreesWithTheStandardLibrary() async {
    let parts = Gen.int(in: 0...0x24F).map { String(UnicodeScalar(UInt32($0)).map(Character.init) ?? "x") }
      .array(of: 0...4).map { $0.joined() }.array(of: 0...6)
    let separators = Gen.element(of: ["", ".", ", ", "::", "é"]).map { $0 ?? "" }
    await propertyCheck(count: 300, input: parts, separators) { parts, separator in
      #expect(parts.joined(separator: separator) == ContiguousArray(parts).joined(separator: separator))
      #expect(parts.joined() == ContiguousArray(parts).joined())
    }
  }

  @Test func edges() {
    #expect([String]().joined(separator: ", ") == "")
    #expect(["a"].joined(separator: ", ") == "a")
    #expect(["", ""].joined(separator: "-") == "-")
    #expect(["a", "b", "c"].joined(separator: ".") == "a.b.c")
  }
}
