import APXCore
import Testing

@testable import APXImport

/// YAML documents read through LibYAML and `YAMLComposer` (what Yams's `compose` did before).
@Suite("YAML composer")
struct YAMLComposerTests {
  private func read(_ yaml: String) throws -> JSONValue {
    try DescriptionReader.read(Array(yaml.utf8), source: "t.yaml")
  }

  private func message(_ yaml: String) -> String {
    do {
      _ = try read(yaml)
      return "no error"
    } catch let error as APXError {
      return error.message
    } catch {
      return "\(error)"
    }
  }

  @Test func scalarsFollowTheCoreSchemaAndQuotedOnesStayText() throws {
    let value = try read(
      """
      a: 0x1F
      b: 1_000
      c: .5
      d: ~
      e: True
      f: '12'
      g: !!str 12
      h: !!int "7"
      i: yes
      j: |
        block
      """)
    #expect(value["a"] == .int(31))
    #expect(value["b"] == .int(1000))
    #expect(value["c"] == .double(0.5))
    #expect(value["d"] == .null)
    #expect(value["e"] == .bool(true))
    #expect(value["f"] == .string("12"))
    #expect(value["g"] == .string("12"))
    #expect(value["h"] == .string("7"))
    #expect(value["i"] == .string("yes"))
    #expect(value["j"] == .string("block"))  // no line break at the end of the text
  }

  @Test func aliasesRepeatTheAnchoredNodeAndKeepKeyOrder() throws {
    let value = try read("base: &b {x: 1, y: [2, 3]}\ncopy: *b\nlast: z\n")
    #expect(value["copy"] == value["base"])
    #expect(value.objectMembers?.map(\.key) == ["base", "copy", "last"])
  }

  @Test func anAliasBombIsRefusedWhileComposingAndModerateAliasesAreNot() throws {
    // Nine levels of nine aliases: 387 million values if expanded.
    var bomb = "a0: &a0 [" + Array(repeating: "x", count: 9).joined(separator: ", ") + "]\n"
    for level in 1..<9 {
      bomb += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]\n"
    }
    let refused = message(bomb)
    #expect(refused.contains("too many alias expansions"), "\(refused)")
    #expect(refused.contains("alias bombs"), "\(refused)")
    #expect(!refused.contains("not valid YAML"), "\(refused)")
    // Three levels of ten (1,111 values repeated a few times) is an ordinary document.
    var moderate = "a0: &a0 [" + Array(repeating: "x", count: 10).joined(separator: ", ") + "]\n"
    for level in 1..<3 {
      moderate +=
        "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
    }
    moderate += "b: [*a2, *a2, *a2]\n"
    let value = try read(moderate)
    #expect(value["b"]?.arrayValue?.count == 3)
    #expect(value["b"]?.arrayValue?.first == value["a2"])
  }

  @Test func duplicatedKeysAreRefusedAsYamsComparedThem() {
    #expect(message("a: 1\nb: 2\na: 3\n").contains("duplicated key(s) 'a'"))
    // Same text, both strings: the same key.
    #expect(message("abc: 1\n'abc': 2\n").contains("duplicated key(s) 'abc'"))
    // Same text, an int and a string: two keys.
    #expect(message("1: 1\n'1': 2\n") == "no error")
    // A plain `yes` resolves to a bool, like an explicit !!bool.
    #expect(message("yes: 1\n!!bool yes: 2\n").contains("duplicated key(s) 'yes'"))
    #expect(message("yes: 1\n'yes': 2\n") == "no error")
    #expect(message("2001-12-14: 1\n!!timestamp 2001-12-14: 2\n").contains("duplicated"))
  }

  @Test func brokenDocumentsGetTheirPosition() {
    #expect(message("a: 1\n---\nb: 2\n").contains("expected a single document"))
    #expect(message("a: *nowhere\n").contains("found undefined alias"))
    #expect(message("a: &x [*x]\n").contains("found undefined alias"))
    let unclosed = message("a: 1\nb: [2, 3\n")
    #expect(unclosed.contains("not valid YAML") && unclosed.contains("error: parser"))
    #expect(message("").contains("is empty"))
    #expect(message("# only a comment\n").contains("is empty"))
  }

  @Test func aControlCharacterIsPlacedByLineAndColumn() {
    #expect(message("a: 1\nb: \"\u{01}\"\n").contains("2:5: error: reader: control characters are not allowed"))
  }
}
