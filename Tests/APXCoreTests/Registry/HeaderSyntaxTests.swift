import APXCore
import Testing

/// Header names and values that cannot be sent are found where they are
/// written (registry files with file:line:column), not on the network after four attempts.
@Suite struct HeaderSyntaxTests {
  @Test(arguments: ["X-Api-Key", "x_trace.id", "A!#$%&'*+-.^_`|~9"])
  func validNamesPass(_ name: String) {
    #expect(HeaderSyntax.nameProblem(name) == nil)
  }

  @Test(arguments: ["", "X Api", "X-Api:", "X\r\nY", "Ünï", "X(1)", "a\"b"])
  func invalidNamesFail(_ name: String) {
    #expect(HeaderSyntax.nameProblem(name) != nil)
  }

  @Test func valuesHoldNoControlCharactersButTab() {
    #expect(HeaderSyntax.valueProblem("Bearer abc\tdef ünï", name: "A") == nil)
    #expect(HeaderSyntax.valueProblem("abc\r\nX-Injected: 1", name: "A")?.contains("carriage return") == true)
    #expect(HeaderSyntax.valueProblem("abc\n", name: "A")?.contains("line feed") == true)
    #expect(HeaderSyntax.valueProblem("a\u{0}b", name: "A")?.contains("NUL") == true)
    #expect(HeaderSyntax.valueProblem("a\u{7F}b", name: "A")?.contains("U+007F") == true)
  }

  @Test func registryHeadersAreCheckedWithTheirLocation() throws {
    let text = """
      {"api": "a", "environments": {"demo": {"base_url": "http://x"}},
       "headers": {"X Tenant": "t", "X-Line": "a\\r\\nX-Injected: 1"},
       "auth": {"type": "api_key", "in": "header", "name": "X Key", "value": "k"},
       "endpoints": {"e": {"kind": "rest", "path": "/e", "headers": {"X-Ok": "1", "Bad:Name": "2"},
         "params": {"h": {"in": "header", "name": "X Param"}}}}}
      """
    let errors = RegistryFixture.errors(text)
    let messages = errors.map(\.message)
    #expect(messages.contains { $0.contains("\"X Tenant\" contains a space") }, "\(messages)")
    #expect(messages.contains { $0.contains("\"X-Line\" contains a carriage return") }, "\(messages)")
    #expect(messages.contains { $0.contains("\"X Key\"") }, "\(messages)")
    #expect(messages.contains { $0.contains("\"Bad:Name\" contains ':'") }, "\(messages)")
    #expect(messages.contains { $0.contains("\"X Param\"") }, "\(messages)")
    #expect(errors.allSatisfy { $0.location != nil && $0.status == .invalidDefinition })
    let line = errors.first { $0.message.contains("X-Line") }
    #expect(line?.location?.line == 2, "\(String(describing: line))")
  }
}
