import APXCore
import Testing

/// An `APXError` keeps the error it wraps, and shows its text as the cause unless the
/// caller gives (masked) cause text of its own.
@Suite struct APXErrorTests {
  struct Refused: Error, CustomStringConvertible {
    var port: Int
    var description: String { "connection refused on port \(port)" }
  }

  @Test func anUnderlyingErrorIsKeptAndShownAsTheCause() {
    let error = APXError(.network, "could not connect", underlying: Refused(port: 8080))
    #expect((error.underlying as? Refused)?.port == 8080)
    #expect(error.cause == "connection refused on port 8080")
    #expect(error.description == "error: could not connect\n  cause: connection refused on port 8080")
  }

  @Test func theCallersCauseTextWins() {
    let error = APXError(.network, "could not connect", cause: "port ***", underlying: Refused(port: 8080))
    #expect(error.cause == "port ***")
    #expect(error.underlying is Refused)
    #expect(!error.description.contains("8080"))
  }

  @Test func withoutEitherThereIsNoCause() {
    let error = APXError(.usage, "bad flag", hint: "see --help")
    #expect(error.cause == nil)
    #expect(error.underlying == nil)
    #expect(error.description == "error: bad flag\n  hint: see --help")
  }
}
