import Testing

/// A negative number after a numeric option is that option's value, refused with the option's
/// own range message and exit 2, never ArgumentParser's "Missing value" (which `-1` looking
/// like a flag used to give).
@Suite("Numeric options with negative values")
struct NegativeNumberOptionTests {
  static let cases: [(arguments: [String], message: String)] = [
    (["call", "books.catalogue.list", "--all", "--max-items"], "--max-items must be at least 1"),
    (["call", "books.catalogue.list", "--all", "--max-pages"], "--max-pages must be between 1 and 1000000"),
    (["call", "books.catalogue.list", "--max-events"], "--max-events must be at least 1"),
    (["call", "books.catalogue.list", "--retry"], "--retry must be from 1 to 100 attempts"),
    (["call", "books.catalogue.list", "--timeout"], "--timeout must be a number of seconds"),
    (["call", "books.catalogue.list", "--connect-timeout"], "--connect-timeout must be a number of seconds"),
    (["call", "books.catalogue.list", "--max-message-size"], "--max-message-size must be a number of bytes"),
    (["import", "openapi", "x.yaml", "--timeout"], "--timeout must be between 0 and 86400 seconds"),
    (["import", "grpc", "x.proto", "--timeout"], "--timeout must be between 0 and 86400 seconds"),
    (["demo", "--port"], "ports must be from 0 to 65535"),
    (["demo", "--grpc-port"], "ports must be from 0 to 65535"),
    (["demo", "--token-lifetime"], "--token-lifetime must be positive"),
  ]

  @Test(arguments: zip(cases.map(\.arguments), cases.map(\.message)))
  func aNegativeValueGetsTheOptionsRangeMessage(_ arguments: [String], _ message: String) async throws {
    for value in ["-1", "-0.5"] where !(value == "-0.5" && arguments.last != "--timeout") {
      let r = try await APXProcess.run(arguments + [value], timeout: 30)
      #expect(r.status == 2, "\(arguments) \(value): \(r.stderr)")
      #expect(r.stderr.contains(message), "\(arguments) \(value): \(r.stderr)")
      #expect(!r.stderr.contains("Missing value"), "\(arguments) \(value): \(r.stderr)")
    }
  }
}
