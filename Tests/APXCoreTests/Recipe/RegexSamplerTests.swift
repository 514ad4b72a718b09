import APXCore
import Testing

/// Texts drawn for a pattern match it, within the length bounds asked for.
@Suite struct RegexSamplerTests {
  @Test(arguments: [
    "^(0|[1-9][0-9]{0,19})$", "^[A-Z]{2}-(red|green|blue)_[a-f0-9]{8}$", "^(?:\\+|00)[1-9]\\d{6,14}$",
    "^[^/\\s]{3,12}(\\.[a-z]{2,4})?$", "^\\w+@example\\.(com|org)$", "v[0-9]+", "(?i)^abc[xy]{2}$",
  ])
  func drawsMatchTheirPattern(pattern: String) throws {
    let sampler = try RegexSampler(pattern)
    let regex = try LinearRegex(pattern)
    var random = SeededRandom(seed: 7)
    for _ in 0..<50 {
      let text = try #require(sampler.sample(&random), "no text for \(pattern)")
      #expect(regex.matches(in: text), "\(text) does not match \(pattern)")
    }
  }

  @Test func lengthBoundsAreKept() throws {
    let sampler = try RegexSampler("^[a-z]+$")
    var random = SeededRandom(seed: 1)
    let text = try #require(sampler.sample(&random, minLength: 40, maxLength: 50))
    #expect((40...50).contains(text.unicodeScalars.count))
    #expect(sampler.sample(&random, minLength: 5, maxLength: 4) == nil)
    // Bounds the pattern cannot meet give no text rather than a wrong one.
    #expect(try RegexSampler("^[0-9]{3}$").sample(&random, minLength: 5, maxLength: 9) == nil)
  }

  @Test func lookAroundIsRefused() {
    #expect(throws: LinearRegexError.self) { try RegexSampler("^(?=a)a$") }
  }
}
