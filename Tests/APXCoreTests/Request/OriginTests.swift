import Testing

@testable import APXCore

@Suite("Origin: hosts, ports and IPv6 brackets")
struct OriginTests {
  @Test func anIPv6AddressIsKeptBareAndWrittenInBrackets() {
    let origin = Origin(scheme: "GRPC", host: "[::1]", port: 50051)
    #expect(origin.host == "::1")
    #expect(origin.hostInURL == "[::1]")
    #expect(origin.authority == "[::1]:50051")
    #expect(origin.description == "grpc://[::1]:50051")
    #expect(Origin(host: "::1", port: nil).authority == "[::1]")
    #expect(Origin(host: "example.com", port: 8080).description == "example.com:8080")
  }

  @Test func anAuthoritySplitsAtItsPortsColon() throws {
    let v6 = try Origin.split("[fe80::1]:8080").get()
    #expect(v6.host == "[fe80::1]")
    #expect(v6.port == "8080")
    let bare = try Origin.split("[::1]").get()
    #expect(bare.host == "[::1]")
    #expect(bare.port == nil)
    let name = try Origin.split("example.com:443").get()
    #expect(name.host == "example.com")
    #expect(name.port == "443")
    #expect(try Origin.split("example.com").get().port == nil)
  }

  @Test func aBrokenIPv6AuthoritySaysWhatIsWrong() {
    #expect(throws: Origin.AuthorityProblem.unclosedBracket) { try Origin.split("[::1:80").get() }
    #expect(throws: Origin.AuthorityProblem.textAfterAddress("x")) { try Origin.split("[::1]x").get() }
  }
}
