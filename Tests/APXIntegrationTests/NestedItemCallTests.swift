import APXDemoServer
import Foundation
import Testing

/// Nested items (`user[name]=Ann`) and form bodies with bracket keys, sent by the real apx
/// binary to the demo backend's echo route, which answers with the bytes it received.
@Suite("nested items and form encodings on the wire")
struct NestedItemCallTests {
  typealias Echo = AdHocCallTests.Echo

  static let registry = #"""
    {"api": "shop", "environments": {"local": {"base_url": "http://127.0.0.1:1"}},
     "endpoints": {
       "users.create": {"kind": "rest", "method": "POST", "path": "/_demo/echo/users",
         "params": {"user": {"in": "body", "type": "json", "required": true}, "note": {"in": "body"}}},
       "customers.create": {"kind": "rest", "method": "POST", "path": "/_demo/echo/v1/customers", "body": "form",
         "params": {"expand": {"in": "form", "type": "array", "style": "deepObject", "explode": true},
                    "metadata": {"in": "form", "type": "json", "style": "deepObject", "explode": true},
                    "name": {"in": "form"}}}}}
    """#

  /// The spaces before a caret under column `offset` of a key shown after "  cause: ".
  static func indent(_ offset: Int) -> String { String(repeating: " ", count: 9 + offset) }

  static func call(_ arguments: [String]) async throws -> APXResult {
    try await APXProcess.run(["call"] + arguments)
  }

  @Test func anAdHocCallNestsJSONAsHTTPieDoes() async throws {
    try await withDemoServer { server in
      let r = try await Self.call([
        server.httpBaseURL + "/_demo/echo", "user[name]=Ann", "user[tags][]=a", "user[tags][]=b", "user[age]:=3",
        "points[1]:=2", "esc\\[x\\]=y", "plain=1",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let echo = try Echo(r.stdout)
      #expect(echo.header("Content-Type") == ["application/json"])
      #expect(
        echo.body == #"{"user":{"name":"Ann","tags":["a","b"],"age":3},"points":[null,2],"esc[x]":"y","plain":"1"}"#)

      let array = try await Self.call([server.httpBaseURL + "/_demo/echo", "[]:=1", "[][id]=x", "q==1"])
      #expect(array.status == 0, "\(array.stderr)")
      let arrayEcho = try Echo(array.stdout)
      #expect(arrayEcho.method == "POST" && arrayEcho.query == "q=1")
      #expect(arrayEcho.header("Content-Type") == ["application/json"])
      #expect(arrayEcho.body == #"[1,{"id":"x"}]"#)
    }
  }

  @Test func anAdHocFormSendsBracketKeysAsTyped() async throws {
    let file = try temporaryFile("rows.csv", "a\n")
    try await withDemoServer { server in
      let r = try await Self.call([
        server.httpBaseURL + "/_demo/echo", "--form", "metadata[foo]=bar", "expand[]=tax", "expand[]=email",
        "name=Ann",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let echo = try Echo(r.stdout)
      #expect(echo.header("Content-Type") == ["application/x-www-form-urlencoded"])
      #expect(echo.body == "metadata%5Bfoo%5D=bar&expand%5B%5D=tax&expand%5B%5D=email&name=Ann")

      let multipart = try await Self.call([server.httpBaseURL + "/_demo/echo", "meta[a]=1", "csv@" + file])
      #expect(multipart.status == 0, "\(multipart.stderr)")
      let parts = try Echo(multipart.stdout)
      let type = try #require(parts.header("Content-Type").first)
      let boundary = String(type.dropFirst("multipart/form-data; boundary=".count))
      #expect(
        parts.body?.hasPrefix("--\(boundary)\r\nContent-Disposition: form-data; name=\"meta[a]\"\r\n\r\n1\r\n") == true,
        "\(parts.body ?? "")")
    }
  }

  @Test func aRegistryEndpointBuildsItsParametersFromParts() async throws {
    let registry = try temporaryFile("shop.json", Self.registry)
    try await withDemoServer { server in
      let common = ["--registry", registry, "--base-url", server.httpBaseURL]
      let json = try await Self.call(
        ["shop.users.create", "user[name]=Ann", "user[roles][]=admin", "user[address][zip]:=\"01234\"", "note=hi"]
          + common)
      #expect(json.status == 0, "\(json.stderr)")
      #expect(
        try Echo(json.stdout).body
          == #"{"user":{"name":"Ann","roles":["admin"],"address":{"zip":"01234"}},"note":"hi"}"#)

      // The issue's call: an object and a text for deepObject form parameters.
      let whole = try await Self.call(
        ["shop.customers.create", #"metadata:={"foo":"bar","n":{"x":1}}"#, "expand=tax", "name=Ann"] + common)
      #expect(whole.status == 0, "\(whole.stderr)")
      let wholeEcho = try Echo(whole.stdout)
      #expect(wholeEcho.header("Content-Type") == ["application/x-www-form-urlencoded"])
      #expect(wholeEcho.body == "expand%5B%5D=tax&metadata%5Bfoo%5D=bar&metadata%5Bn%5D%5Bx%5D=1&name=Ann")

      // The same by parts, as Stripe's own examples write them.
      let parts = try await Self.call(
        ["shop.customers.create", "metadata[foo]=bar", "expand[]=tax", "expand[]=email"] + common)
      #expect(parts.status == 0, "\(parts.stderr)")
      #expect(try Echo(parts.stdout).body == "metadata%5Bfoo%5D=bar&expand%5B%5D=tax&expand%5B%5D=email")
    }
  }

  @Test(arguments: [
    (
      ["user[name]=Ann", "user[]=x"], "type conflict in the request item key \"user[]\"",
      "user[]\n" + NestedItemCallTests.indent(4) + "^^"
    ),
    (["user:={}", "user[name]=Ann"], "\"user\" is given both whole", nil),
    (["user[name=Ann"], "never closed", "user[name\n" + NestedItemCallTests.indent(4) + "^^^^^"),
    (["other[x]=1"], "has no parameter \"other\"", nil),
  ])
  func mistakesAreUsageErrors(_ items: [String], _ message: String, _ caret: String?) async throws {
    let registry = try temporaryFile("shop.json", Self.registry)
    let r = try await Self.call(
      ["shop.users.create"] + items + ["--registry", registry, "--base-url", "http://127.0.0.1:1"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains(message), "\(r.stderr)")
    if let caret { #expect(r.stderr.contains("  cause: " + caret), "\(r.stderr)") }
    #expect(r.stdout.isEmpty)
  }
}
