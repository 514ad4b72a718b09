import APXCore
import Testing

/// `matches` patterns run in linear time: a catastrophic pattern ends at once.
@Suite struct LinearRegexTests {
  static func matches(_ pattern: String, _ text: String) throws -> Bool {
    try LinearRegex(pattern).matches(in: text)
  }

  // Before the fix this ran for ever (Swift Regex backtracks); the time limit turns a hang into a failure.
  @Test(.timeLimit(.minutes(5)))
  func catastrophicPatternsEndAtOnce() throws {
    let text = String(repeating: "a", count: 30) + "!"
    #expect(try !Self.matches("^(a+)+$", text))
    #expect(try !Self.matches("^(a|aa)+$", text))
    #expect(try !Self.matches("^(a*)*b$", String(repeating: "a", count: 5000)))
    #expect(try Self.matches("^(a+)+$", String(repeating: "a", count: 30)))
  }

  @Test(arguments: [
    ("^imp_[0-9a-f]+$", "imp_7f07", true), ("^imp_[0-9a-f]+$", "imp_7g07", false),
    ("^job_", "imp_1", false), ("b", "abc", true), ("^text/", "text/csv", true),
    ("^[A-Za-z0-9_-]+$", "a-b_C9", true), ("^[A-Za-z0-9_-]+$", "a b", false),
    ("colou?r", "my color", true), ("^\\d{3}-\\d{2,}$", "123-45", true), ("^\\d{3}-\\d{2,}$", "123-4", false),
    ("^(cat|dog)s?$", "dogs", true), ("^(cat|dog)s?$", "cow", false), ("\\bis\\b", "this is", true),
    ("\\bis\\b", "this", false), ("a.c", "a\nc", false), ("a.c", "abc", true), ("^$", "", true),
    ("end$", "the end\n", true), ("\\Aab\\z", "ab\n", false), ("(?i)^abc$", "AbC", true), ("^[^,]+$", "a,b", false),
    ("\\s+", "a b", true), ("^\\S+$", "a b", false), ("[\\d.]+", "1.5", true), ("\\x41\\u{42}", "AB", true),
    ("a{2}", "a", false), ("a{2}", "xaax", true), ("x{0}", "", true), ("\\.", "a", false), ("(?:ab)+c", "ababc", true),
    ("(?<word>\\w+)@", "me@x", true), ("caf\u{e9}", "caf\u{e9}!", true), ("a+?b", "aab", true),
  ])
  func matchesLikeACommonEngine(_ pattern: String, _ text: String, _ expected: Bool) throws {
    #expect(try Self.matches(pattern, text) == expected)
  }

  @Test(arguments: [
    ("([", "a '[' without its ']'"), ("(a", "a '(' without its ')'"), ("a)", "unbalanced ')'"),
    ("(a)\\1", "back-references are not supported (matches run in linear time)"),
    ("(?=a)", "look-around is not supported (matches run in linear time)"), ("*a", "'*' has nothing to repeat"),
    ("a**", "a quantifier cannot follow another"), ("a++", "possessive quantifiers are not supported"),
    ("a{3,2}", "the repeat {3,2} has its bounds reversed"), ("a{5000}", "a counted repeat may be at most 1000"),
    ("[z-a]", "the range in [ ] is reversed"), ("\\q", "unknown escape \\q"), ("a\\", "a pattern cannot end with '\\'"),
  ])
  func badPatternsAreNamed(_ pattern: String, _ message: String) {
    do {
      _ = try LinearRegex(pattern)
      Issue.record("\(pattern) compiled")
    } catch {
      #expect(error.message == message)
    }
  }

  @Test func sizeAndNestingAreBounded() {
    #expect(throws: LinearRegexError.self) { try LinearRegex("(a{1000}){1000}") }
    #expect(throws: LinearRegexError.self) {
      try LinearRegex(String(repeating: "(", count: 100) + String(repeating: ")", count: 100))
    }
    #expect(throws: LinearRegexError.self) {
      try LinearRegex(String(repeating: "a", count: LinearRegex.maxPatternLength + 1))
    }
  }

  @Test func recipeLoaderUsesTheSameEngine() throws {
    let errors = try RecipeValidationTests.problems(
      """
      { "name": "r", "steps": [ { "id": "s", "call": "books.imports.status", "with": { "job_id": "j" },
        "expect": { ".body.x": { "matches": "(a)\\\\1" } } } ] }
      """)
    #expect(errors.contains { $0.message.hasPrefix("invalid regular expression: back-references") }, "\(errors)")
  }
}
