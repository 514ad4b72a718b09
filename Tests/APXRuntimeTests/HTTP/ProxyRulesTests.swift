import APXCore
import Testing

@testable import APXRuntime

/// `ProxyRules`, `ProxyServer` and `NoProxyList`: which proxy a URL goes through, read as curl
/// reads the variables and flags.
@Suite struct ProxyRulesTests {
  @Test func eachSchemeReadsItsVariableLowerCaseFirstThenAllProxy() throws {
    let rules = try ProxyRules(
      flag: nil, noProxyFlag: nil,
      environment: [
        "http_proxy": "http://lower:1", "HTTP_PROXY": "http://upper:2", "HTTPS_PROXY": "secure:3",
        "ALL_PROXY": "http://all:4",
      ])
    #expect(rules.proxy(forURL: "http://api.example/x")?.host == "lower")
    #expect(rules.proxy(forURL: "https://api.example/x")?.host == "secure")
    #expect(rules.proxy(forURL: "https://api.example/x")?.port == 3)
    // WebSockets as curl reads them: ws:// is http's, wss:// https's.
    #expect(rules.proxy(forURL: "ws://api.example/socket")?.host == "lower")
    #expect(rules.proxy(forURL: "WSS://api.example/socket")?.host == "secure")
    let fallback = try ProxyRules(flag: nil, noProxyFlag: nil, environment: ["all_proxy": "all.example"])
    #expect(fallback.proxy(forURL: "https://api.example")?.host == "all.example")
    #expect(fallback.proxy(forURL: "https://api.example")?.port == 1080)
    #expect(fallback.proxy(scheme: "grpc", host: "api.example")?.host == "all.example")
  }

  @Test func theFlagOutranksTheVariablesAndAnEmptyFlagTurnsThemOff() throws {
    let env = ["HTTPS_PROXY": "http://env:1"]
    let flag = try ProxyRules(flag: "http://flag:2", noProxyFlag: nil, environment: env)
    #expect(flag.proxy(forURL: "https://a.example")?.host == "flag")
    #expect(flag.proxy(forURL: "http://a.example")?.host == "flag")
    let off = try ProxyRules(flag: "", noProxyFlag: nil, environment: env)
    #expect(off.proxy(forURL: "https://a.example") == nil)
  }

  @Test func noProxyTakesSuffixesAddressesRangesAndAStar() throws {
    let list = NoProxyList("example.com, .internal,10.0.0.0/8 192.168.1.7,fd00::/8,[::1]")
    #expect(list.matches(host: "example.com"))
    #expect(list.matches(host: "api.example.com"))
    #expect(!list.matches(host: "notexample.com"))
    #expect(list.matches(host: "db.internal"))
    #expect(list.matches(host: "10.200.3.4"))
    #expect(!list.matches(host: "11.0.0.1"))
    #expect(list.matches(host: "192.168.1.7"))
    #expect(!list.matches(host: "192.168.1.8"))
    #expect(list.matches(host: "[fd12::1]"))
    #expect(list.matches(host: "::1"))
    #expect(!list.matches(host: "fe80::1"))
    #expect(NoProxyList("*").matches(host: "anything.example"))
    #expect(!NoProxyList("").matches(host: "anything.example"))
    let rules = try ProxyRules(
      flag: nil, noProxyFlag: nil, environment: ["HTTPS_PROXY": "http://p:1", "no_proxy": "example.com"])
    #expect(rules.proxy(forURL: "https://user@api.example.com:8443/x") == nil)
    #expect(rules.proxy(forURL: "https://api.example.org/x") != nil)
  }

  @Test func credentialsAreDecodedAndMaskedWhenShown() throws {
    let server = try ProxyServer(url: "http://al%40ice:p%3Ass@proxy.example:3128/", source: "--proxy")
    #expect(server.username == "al@ice")
    #expect(server.password == "p:ss")
    #expect(server.display == "http://al@ice:***@proxy.example:3128")
    #expect(!server.display.contains("p:ss"))
  }

  @Test func aProxyURLApxCannotUseIsAUsageErrorThatDoesNotEchoIt() {
    for url in ["https://u:secretpw@p:1", "ftp://p:1", "http://p:0", "http://:8080", "http://p:1/path"] {
      #expect {
        try ProxyServer(url: url, source: "HTTPS_PROXY")
      } throws: { error in
        guard let error = error as? APXError else { return false }
        return error.status == .usage && error.message.contains("HTTPS_PROXY") && !error.message.contains("secretpw")
      }
    }
  }
}
