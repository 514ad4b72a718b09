import APXCore
import Testing

/// Out-of-range numbers from flags, files and servers end with a message, never a trap.
@Suite struct NumberLimitTests {
  @Test(arguments: [1e300, .infinity, -.infinity, .nan, -1, 0, 1e9, 2e9])
  func durationConversionNeverTraps(_ seconds: Double) {
    let millis = DurationConversion.milliseconds(seconds)
    #expect(millis >= 0 && millis <= 1_000_000_000_000)
    #expect(DurationConversion.nanoseconds(seconds) <= 1_000_000_000_000_000_000)
  }

  @Test func durationConversionKeepsOrdinaryValues() {
    #expect(DurationConversion.milliseconds(1.5) == 1500)
    #expect(DurationConversion.milliseconds(0.0004) == 0)
    #expect(DurationConversion.nanoseconds(2) == 2_000_000_000)
  }

  @Test func numberTextNeverTraps() {
    #expect(NumberText.plain(3) == "3")
    #expect(NumberText.plain(1.5) == "1.5")
    #expect(NumberText.plain(1e300) == "1e+300")
    #expect(NumberText.plain(.infinity) == "inf")
    #expect(NumberText.oneDecimal(12.34) == "12.3")
    #expect(NumberText.oneDecimal(-1.25) == "-1.3")
    #expect(NumberText.oneDecimal(1e300) == "1e+300")
  }

  @Test(arguments: [
    ("http://127.0.0.1:65536", "has the port \"65536\", which is not a number from 1 to 65535"),
    ("http://127.0.0.1:99999/api", "has the port \"99999\", which is not a number from 1 to 65535"),
    ("http://127.0.0.1:0", "has the port \"0\", which is not a number from 1 to 65535"),
    (
      "http://h:99999999999999999999999",
      "has the port \"99999999999999999999999\", which is not a number from 1 to 65535"
    ),
    ("http://h:8a", "has the port \"8a\", which is not a number from 1 to 65535"),
    ("http://:80", "has no host"),
    ("http://[::1", "has an IPv6 address without a closing ']'"),
    ("ftp://h", "must start with http://, https://, grpc://, grpcs://, ws://, wss://"),
    ("localhost:8080/x://y", "must start with http://, https://, grpc://, grpcs://, ws://, wss://"),
    ("http://a b", "has spaces or control characters in its host"),
  ])
  func badURLsAreNamed(_ url: String, _ problem: String) {
    #expect(BaseURLCheck.problem(url) == "\"\(url)\" " + problem)
  }

  @Test(arguments: [
    "http://127.0.0.1:65535", "https://h", "grpc://[::1]:50051", "http://h:8080/x?q=1&at=a@b", "http://h/",
    "HTTPS://h", "grpc://h:1/a://b",
  ])
  func goodURLsPass(_ url: String) {
    #expect(BaseURLCheck.problem(url) == nil)
  }

  /// Sent as nothing and shown wherever the URL is: refused, the password masked.
  @Test func aUserNameOrPasswordIsRefusedAndMasked() {
    #expect(
      BaseURLCheck.problem("http://u:pw-secret@h:8080/x")
        == "\"http://u:***@h:8080/x\" carries a user name or password; give credentials with -a USER:PASSWORD or the API's auth"
    )
    #expect(BaseURLCheck.problem("https://token-value@h")?.hasPrefix("\"https://***@h\"") == true)
  }

  @Test func redirectSchemesAreLimited() {
    #expect(BaseURLCheck.problem("file:///etc/passwd", schemes: ["http", "https"]) != nil)
    #expect(BaseURLCheck.problem("grpc://h:1", schemes: ["http", "https"]) != nil)
  }

  @Test func registryBaseURLWithABadPortIsLocated() throws {
    let text = """
      {
        "api": "a",
        "environments": { "prod": { "base_url": "http://127.0.0.1:99999" } },
        "endpoints": { "e": { "kind": "rest", "path": "/" } }
      }
      """
    let error = try #require(RegistryFixture.error(text))
    #expect(
      error.message
        == "base_url \"http://127.0.0.1:99999\" has the port \"99999\", which is not a number from 1 to 65535")
    #expect(error.location == RegistryFixture.position(of: "\"http://127.0.0.1:99999\"", in: text))
    #expect(error.status == .invalidDefinition)
  }

  @Test func templatedBaseURLIsCheckedLater() {
    let text = """
      { "api": "a", "environments": { "prod": { "base_url": "http://h:${env:PORT}" } },
        "endpoints": { "e": { "kind": "rest", "path": "/" } } }
      """
    #expect(RegistryFixture.load(text) != nil)
  }

  @Test func hugeAndInfiniteNumbersReadAsWritten() throws {
    let infinite = try #require(
      RegistryFixture.error(#"{ "api": "a", "endpoints": { "e": { "kind": "rest", "path": "/", "timeout": 1e309 } } }"#)
    )
    #expect(infinite.message == "1e309 is out of range")
    #expect(infinite.hint == "use a value from 0.001 to 86400")
    let long = try #require(
      RegistryFixture.error(
        #"{ "api": "a", "endpoints": { "e": { "kind": "rest", "path": "/", "expect_status": 123456789012345678901234567890 } } }"#
      ))
    #expect(long.message == "123456789012345678901234567890 is out of range")
  }
}
