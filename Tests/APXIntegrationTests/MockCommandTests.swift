import APXCore
import Foundation
import Testing

/// `apx mock` run as a real process on port 0, talked to over loopback: declared and generated
/// answers, `Prefer`, validation, auth, faults, introspection, SSE resumption, JSON-RPC and
/// `--stateful`, and the flags it refuses.
@Suite("apx mock", .timeLimit(.minutes(5)))
struct MockCommandTests {
  /// A registry folder with `shop.json`: one endpoint per behaviour under test.
  static func registry() throws -> String {
    let file = try temporaryFile(
      "shop.json",
      #"""
      {
        "api": "shop",
        "environments": {"prod": {"base_url": "https://shop.example.com/api/v3"}},
        "schemas": {
          "Item": {"type": "object", "required": ["id", "sku", "price", "tags", "added", "ref", "owner"],
            "properties": {
              "id": {"type": "integer", "minimum": 10, "maximum": 20},
              "sku": {"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"},
              "price": {"type": "number", "minimum": 1, "maximum": 2},
              "tags": {"type": "array", "minItems": 2, "maxItems": 3, "items": {"type": "string", "enum": ["a", "b"]}},
              "added": {"type": "string", "format": "date-time"},
              "ref": {"type": "string", "format": "uuid"},
              "owner": {"allOf": [{"$ref": "#/schemas/Named"}, {"type": "object", "required": ["email"],
                "properties": {"email": {"type": "string", "format": "email"}}}]},
              "kind": {"oneOf": [{"type": "string", "enum": ["x"]}, {"type": "integer"}]}
            }},
          "Named": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "minLength": 3, "maxLength": 5}}}
        },
        "endpoints": {
          "items.get": {
            "kind": "rest", "path": "/items/{id}",
            "params": {"id": {"in": "path", "type": "integer", "required": true}, "verbose": {"type": "boolean"}},
            "responses": {
              "200": {"content_type": "application/json", "schema": {"$ref": "#/schemas/Item"}},
              "404": {"content_type": "application/json", "examples": {"gone": {"error": "gone"}}}
            }
          },
          "items.special": {
            "kind": "rest", "path": "/items/special",
            "responses": {"200": {"content_type": "application/json",
              "examples": {"first": {"n": 1}, "second": {"n": 2}}}}
          },
          "items.odd": {
            "kind": "rest", "path": "/items/odd",
            "responses": {"200": {"content_type": "application/json",
              "schema": {"type": "array", "minItems": 1, "items": {"type": "integer"}}, "examples": {"wrong": {"a": 1}}}}
          },
          "items.page": {
            "kind": "rest", "path": "/items/page",
            "responses": {"200": {"content_type": "application/json",
              "schema": {"type": "object", "required": ["next"], "properties": {
                "next": {"type": "string", "format": "uri"}, "sid": {"type": "string", "pattern": "^AC[0-9a-f]{4}$"}}},
              "examples": {"relative": {"next": "/items/page?Page=1"}, "badSid": {"next": "https://x.test/", "sid": "ACzz"},
                "fits": {"next": "https://x.test/items/page?Page=1", "sid": "AC00ff"}}}}
          },
          "items.extreme": {
            "kind": "rest", "path": "/items/extreme",
            "responses": {"200": {"content_type": "application/json", "schema": {"type": "object",
              "required": ["big", "long", "many"], "properties": {
                "big": {"type": "integer", "minimum": 1e300},
                "long": {"type": "string", "minLength": 1000000000},
                "many": {"type": "array", "minItems": 1000000000, "items": {"type": "boolean"}}}}}}
          },
          "items.nested": {
            "kind": "rest", "path": "/items/nested",
            "responses": {"200": {"content_type": "application/json", "schema": {"type": "array", "minItems": 10000,
              "items": {"type": "array", "minItems": 10000, "items": {"type": "integer"}}}}}
          },
          "items.wide": {
            "kind": "rest", "path": "/items/wide",
            "responses": {"200": {"content_type": "application/json", "schema": {"type": "array", "minItems": 1000,
              "maxItems": 1000, "items": {"type": "array", "minItems": 1000, "maxItems": 1000, "items": {"type": "boolean"}}}}}
          },
          "orders.create": {
            "kind": "rest", "method": "POST", "path": "/orders",
            "params": {"qty": {"in": "body", "type": "integer", "required": true}, "mode": {"in": "body", "enum": ["fast", "slow"]}},
            "responses": {"201": {"content_type": "application/json", "examples": {"made": {"ok": true}}}, "422": {}}
          },
          "secret": {
            "kind": "rest", "path": "/secret", "auth": {"type": "bearer", "token": "${env:SHOP_TOKEN}"},
            "responses": {"200": {"content_type": "application/json", "examples": {"ok": {"secret": true}}}}
          },
          "keyed": {
            "kind": "rest", "path": "/keyed", "auth": {"type": "api_key", "in": "header", "name": "X-Key", "value": "k"},
            "responses": {"204": {}}
          },
          "ticks": {
            "kind": "sse", "path": "/ticks", "until_event": ["done"],
            "reconnect": {"delays": [0.05], "max_failures": 5},
            "responses": {"200": {"content_type": "text/event-stream", "schema": {"type": "object",
              "required": ["n"], "properties": {"n": {"type": "integer"}}}}}
          },
          "add": {
            "kind": "jsonrpc", "rpc_method": "add",
            "responses": {"200": {"content_type": "application/json", "examples": {"sum": 3}}}
          },
          "echo": {"kind": "jsonrpc", "rpc_method": "echo"},
          "socket": {"kind": "websocket", "path": "/ws"}
        }
      }
      """#)
    return URL(fileURLWithPath: file).deletingLastPathComponent().path
  }

  @Test func generatedAnswersFollowTheSchemaAndTheSeed() async throws {
    let registry = try Self.registry()
    var bodies: [String] = []
    for seed in ["1", "1", "2"] {
      let box = TextBox()
      try await MockProcess.with(["shop", "--registry", registry, "--seed", seed]) { mock in
        let answer = try await LoopbackHTTP.request(port: try mock.port(), "GET", "/items/7")
        #expect(answer.status == 200)
        #expect(answer.header("content-type") == "application/json")
        let item = try #require(answer.json)
        let id = try #require(item["id"]?.intValue)
        #expect((10...20).contains(id))
        let sku = try #require(item["sku"]?.stringValue)
        #expect(sku.wholeMatch(of: /[A-Z]{3}-\d{4}/) != nil, "\(sku)")
        let price = try #require(item["price"]?.doubleValue)
        #expect((1...2).contains(price))
        let tags = try #require(item["tags"]?.arrayValue)
        #expect((2...3).contains(tags.count) && tags.allSatisfy { $0 == .string("a") || $0 == .string("b") })
        #expect(item["added"]?.stringValue?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
        #expect(UUID(uuidString: item["ref"]?.stringValue ?? "") != nil)
        let name = try #require(item["owner"]?["name"]?.stringValue)
        #expect((3...5).contains(name.count))
        #expect(item["owner"]?["email"]?.stringValue?.contains("@") == true)
        box.set(answer.text)
      }
      bodies.append(box.text)
    }
    #expect(bodies[0] == bodies[1], "the same seed gives the same answer")
    #expect(bodies[0] != bodies[2], "another seed gives another answer")
  }

  @Test func preferPicksADeclaredAnswerAndLiteralPathsWin() async throws {
    try await MockProcess.with(["shop", "--registry", try Self.registry()]) { mock in
      let port = try mock.port()
      let first = try await LoopbackHTTP.request(port: port, "GET", "/items/special")
      #expect(first.json == .object([JSONMember("n", .int(1))]))
      let second = try await LoopbackHTTP.request(
        port: port, "GET", "/items/special", headers: ["Prefer": "example=second"])
      #expect(second.json == .object([JSONMember("n", .int(2))]))
      let gone = try await LoopbackHTTP.request(port: port, "GET", "/items/3", headers: ["Prefer": "code=404"])
      #expect(gone.status == 404)
      #expect(gone.json == .object([JSONMember("error", .string("gone"))]))
      let undeclared = try await LoopbackHTTP.request(port: port, "GET", "/items/3", headers: ["Prefer": "code=418"])
      #expect(undeclared.status == 422)
      #expect(try await LoopbackHTTP.request(port: port, "GET", "/nothing").status == 404)
      // The environment's base path may stay in front of the endpoint's.
      let prefixed = try await LoopbackHTTP.request(port: port, "GET", "/api/v3/items/special")
      #expect(prefixed.json == .object([JSONMember("n", .int(1))]))
      let wrongMethod = try await LoopbackHTTP.request(port: port, "DELETE", "/secret")
      #expect(wrongMethod.status == 405)
      #expect(wrongMethod.header("allow") == "GET")
    }
  }

  @Test func anExampleItsSchemaRefusesIsServedOnlyWhenAskedFor() async throws {
    let run = try await MockProcess.with(["shop", "--registry", try Self.registry()]) { mock in
      let port = try mock.port()
      let answer = try await LoopbackHTTP.request(port: port, "GET", "/items/odd")
      let items = try #require(answer.json?.arrayValue)
      #expect(!items.isEmpty && items.allSatisfy { $0.intValue != nil }, "\(answer.text)")
      let asked = try await LoopbackHTTP.request(port: port, "GET", "/items/odd", headers: ["Prefer": "example=wrong"])
      #expect(asked.json == .object([JSONMember("a", .int(1))]))
    }
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(stderr.contains(#"example "wrong" of shop.items.odd (200) does not fit its schema"#), "\(stderr)")
  }

  /// An example that breaks its own `format` or `pattern` (a relative path under `format: uri`,
  /// as Twilio's description holds) is not served unasked: the first one that fits is.
  @Test func anExampleBreakingItsFormatOrPatternIsNotServedUnasked() async throws {
    let run = try await MockProcess.with(["shop", "--registry", try Self.registry()]) { mock in
      let port = try mock.port()
      let answer = try await LoopbackHTTP.request(port: port, "GET", "/items/page")
      #expect(answer.json?["next"] == .string("https://x.test/items/page?Page=1"), "\(answer.text)")
    }
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(stderr.contains(#"example "relative" of shop.items.page (200) does not fit its schema"#), "\(stderr)")
    #expect(stderr.contains(#"example "badSid" of shop.items.page (200) does not fit its schema"#), "\(stderr)")
  }

  /// Minimums past the size budget (`minLength: 1e9`; `minItems: 10000` nested twice, 10^8
  /// values) are a 500 naming the limit at once: neither a hang, a trap, a runaway memory, nor an
  /// answer cut short that its schema refuses.
  @Test(arguments: ["/items/extreme", "/items/nested"])
  func minimumsPastTheBudgetAreA500NamingIt(path: String) async throws {
    try await MockProcess.with(["shop", "--registry", try Self.registry()]) { mock in
      let answer = try await LoopbackHTTP.request(port: try mock.port(), "GET", path)
      #expect(answer.status == 500, "\(answer.text.prefix(300))")
      let detail = answer.json?["detail"]?.stringValue ?? ""
      #expect(detail.contains("would be larger than 1048576 bytes"), "\(detail)")
      #expect(detail.contains("raise --max-generated-size"), "\(detail)")
    }
  }

  /// The same nested minimums within a raised budget: the whole answer, as its schema asks.
  @Test func aRaisedBudgetServesTheWholeAnswer() async throws {
    try await MockProcess.with(["shop", "--registry", try Self.registry(), "--max-generated-size", "8000000"]) { mock in
      let answer = try await LoopbackHTTP.request(port: try mock.port(), "GET", "/items/wide")
      #expect(answer.status == 200, "\(answer.text.prefix(300))")
      let rows = answer.json?.arrayValue ?? []
      #expect(rows.count == 1000 && rows.allSatisfy { $0.arrayValue?.count == 1000 }, "\(rows.count)")
    }
    try await MockProcess.with(["shop", "--registry", try Self.registry()]) { mock in
      let answer = try await LoopbackHTTP.request(port: try mock.port(), "GET", "/items/wide")
      #expect(answer.status == 500, "\(answer.text.prefix(300))")
    }
  }

  @Test func invalidRequestsGetAProblemNamingTheField() async throws {
    try await MockProcess.with(["shop", "--registry", try Self.registry()]) { mock in
      let port = try mock.port()
      let badPath = try await LoopbackHTTP.request(port: port, "GET", "/items/seven")
      #expect(badPath.status == 400)
      #expect(badPath.header("content-type") == "application/problem+json")
      #expect(badPath.json?["field"] == .string("id"))
      let badQuery = try await LoopbackHTTP.request(port: port, "GET", "/items/7?verbose=maybe")
      #expect(badQuery.status == 400)
      #expect(badQuery.json?["field"] == .string("verbose"))
      // The endpoint declares 422: invalid bodies get it.
      let json = ["Content-Type": "application/json"]
      let missing = try await LoopbackHTTP.request(
        port: port, "POST", "/orders", headers: json, body: #"{"mode": "fast"}"#)
      #expect(missing.status == 422)
      #expect(missing.json?["field"] == .string("qty"))
      let wrongType = try await LoopbackHTTP.request(
        port: port, "POST", "/orders", headers: json, body: #"{"qty": "2"}"#)
      #expect(wrongType.status == 422 && wrongType.json?["field"] == .string("qty"))
      let notAllowed = try await LoopbackHTTP.request(
        port: port, "POST", "/orders", headers: json, body: #"{"qty": 2, "mode": "slowest"}"#)
      #expect(notAllowed.status == 422 && notAllowed.json?["field"] == .string("mode"))
      let valid = try await LoopbackHTTP.request(port: port, "POST", "/orders", headers: json, body: #"{"qty": 2}"#)
      #expect(valid.status == 201)
      #expect(valid.json == .object([JSONMember("ok", .bool(true))]))
    }
  }

  @Test func aJSONBodyIsCheckedAgainstTheDescriptionsSchema() async throws {
    let description = try temporaryFile(
      "pets.json",
      #"""
      {"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"},
       "paths": {"/pets": {"post": {"operationId": "addPet",
         "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
         "responses": {"201": {"description": "made", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}}},
       "components": {"schemas": {"Pet": {"type": "object", "required": ["id", "name"], "additionalProperties": false,
         "properties": {"id": {"type": "integer", "readOnly": true}, "name": {"type": "string", "maxLength": 5},
           "tags": {"type": "array", "items": {"type": "string"}}}}}}}
      """#)
    try await MockProcess.with(["--openapi", description]) { mock in
      let port = try mock.port()
      let json = ["Content-Type": "application/json"]
      let made = try await LoopbackHTTP.request(port: port, "POST", "/pets", headers: json, body: #"{"name": "Rex"}"#)
      #expect(made.status == 201, "readOnly id is not required in a request: \(made.text)")
      #expect(made.json?["id"]?.intValue != nil, "but it is in the answer")
      let deep = try await LoopbackHTTP.request(
        port: port, "POST", "/pets", headers: json, body: #"{"name": "Rex", "tags": ["a", 2]}"#)
      #expect(deep.status == 400)
      #expect(deep.json?["field"] == .string("tags[1]"))
      let long = try await LoopbackHTTP.request(
        port: port, "POST", "/pets", headers: json, body: #"{"name": "Rexanne"}"#)
      #expect(long.json?["field"] == .string("name"))
      let extra = try await LoopbackHTTP.request(
        port: port, "POST", "/pets", headers: json, body: #"{"name": "Rex", "colour": "red"}"#)
      #expect(extra.status == 400 && extra.json?["field"] == .string("colour"))
      let notJSON = try await LoopbackHTTP.request(port: port, "POST", "/pets", headers: json, body: "name=Rex")
      #expect(notJSON.status == 400 && notJSON.json?["field"] == .string("body"))
    }
  }

  @Test func authIsCheckedInFormNotValue() async throws {
    try await MockProcess.with(["shop", "--registry", try Self.registry()]) { mock in
      let port = try mock.port()
      #expect(try await LoopbackHTTP.request(port: port, "GET", "/secret").status == 401)
      #expect(
        try await LoopbackHTTP.request(port: port, "GET", "/secret", headers: ["Authorization": "Basic eDp5"]).status
          == 401)
      let anyToken = try await LoopbackHTTP.request(
        port: port, "GET", "/secret", headers: ["Authorization": "Bearer whatever"])
      #expect(anyToken.status == 200)
      #expect(try await LoopbackHTTP.request(port: port, "GET", "/keyed").status == 401)
      #expect(try await LoopbackHTTP.request(port: port, "GET", "/keyed", headers: ["X-Key": "any"]).status == 204)
    }
  }

  @Test func apxCallsTheMockAsItWouldTheRealServer() async throws {
    let registry = try Self.registry()
    try await MockProcess.with(["shop", "--registry", registry]) { mock in
      let base = try #require(mock.urls["shop"])
      let r = try await APXProcess.run(
        ["call", "--registry", registry, "shop.secret", "--base-url", base], environment: ["SHOP_TOKEN": "t0k"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try JSONParser.parse(r.stdout) == .object([JSONMember("secret", .bool(true))]))
      let sum = try await APXProcess.run(["call", "--registry", registry, "shop.add", "--base-url", base])
      #expect(sum.status == 0, "\(sum.stderr)")
      #expect(sum.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "3")
    }
  }

  @Test func jsonRPCAnswersByMethodName() async throws {
    try await MockProcess.with(["shop", "--registry", try Self.registry()]) { mock in
      let port = try mock.port()
      let json = ["Content-Type": "application/json"]
      let batch = try await LoopbackHTTP.request(
        port: port, "POST", "/", headers: json,
        body: #"[{"jsonrpc": "2.0", "id": 1, "method": "add"}, {"jsonrpc": "2.0", "id": 2, "method": "echo"},"#
          + #" {"jsonrpc": "2.0", "method": "add"}, {"jsonrpc": "2.0", "id": 4, "method": "nope"}]"#)
      let answers = try #require(batch.json?.arrayValue)
      #expect(answers.count == 3, "a notification gets no answer")
      #expect(answers[0]["result"] == .int(3))
      #expect(answers[1]["result"] == .object([]))
      #expect(answers[2]["error"]?["code"] == .int(-32601))
    }
  }

  @Test func faultsFromTheHeaderAndFlagsAreAppliedAndLogged() async throws {
    let registry = try Self.registry()
    let run = try await MockProcess.with(["shop", "--registry", registry]) { mock in
      let port = try mock.port()
      let failed = try await LoopbackHTTP.request(
        port: port, "GET", "/items/special", headers: ["X-Apx-Mock-Fault": "fail=503; retry-after=7"])
      #expect(failed.status == 503)
      #expect(failed.header("retry-after") == "7")
      let slow = try await LoopbackHTTP.request(
        port: port, "GET", "/items/special", headers: ["X-Apx-Mock-Fault": "latency=1+2"])
      #expect(slow.status == 200)
      let bad = try await LoopbackHTTP.request(
        port: port, "GET", "/items/special", headers: ["X-Apx-Mock-Fault": "explode=yes"])
      #expect(bad.status == 400)
      #expect(bad.json?["detail"]?.stringValue?.contains("unknown fault \"explode\"") == true)
    }
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(stderr.contains("apx mock: fault: failed with 503: GET /items/special"), "\(stderr)")
    #expect(stderr.contains("apx mock: fault: latency "), "\(stderr)")

    let flagged = try await MockProcess.with(
      ["shop", "--registry", registry, "--fail-rate", "1", "--fail-status", "429"]
    ) { mock in
      let answer = try await LoopbackHTTP.request(port: try mock.port(), "GET", "/items/special")
      #expect(answer.status == 429)
      #expect(answer.header("retry-after") == "1")
    }
    #expect(String(decoding: flagged.stderr, as: UTF8.self).contains("fault: failed with 429: GET /items/special"))
  }

  @Test func introspectionListsRequestsAndResetClearsThem() async throws {
    try await MockProcess.with(["shop", "--registry", try Self.registry()]) { mock in
      let port = try mock.port()
      _ = try await LoopbackHTTP.request(
        port: port, "GET", "/items/special?x=1&access_token=q-s3cr3t",
        headers: ["X-Trace": "t1", "X-Apx-Mock-Fault": "latency=1", "Authorization": "Bearer h-s3cr3t"])
      _ = try await LoopbackHTTP.request(
        port: port, "POST", "/orders", headers: ["Content-Type": "application/json"], body: #"{"qty": 1}"#)
      let listed = try #require(try await LoopbackHTTP.request(port: port, "GET", "/__apx/requests").json?.arrayValue)
      #expect(listed.count == 2)
      #expect(listed[0]["path"] == .string("/items/special"))
      #expect(listed[0]["query"]?["x"] == .string("1"))
      #expect(listed[0]["headers"]?["x-trace"] == .string("t1"))
      // Credentials are listed as present, never as sent.
      #expect(listed[0]["headers"]?["authorization"] == .string("***"))
      #expect(listed[0]["query"]?["access_token"] == .string("***"))
      #expect(!(listed.map(\.compactJSON).joined().contains("s3cr3t")))
      #expect(listed[0]["endpoint"] == .string("items.special"))
      #expect(listed[0]["fault"] == .string("latency 1 ms"))
      #expect(listed[1]["body"] == .object([JSONMember("qty", .int(1))]))
      #expect(listed[1]["status"] == .int(201))
      #expect(try await LoopbackHTTP.request(port: port, "POST", "/__apx/reset").status == 204)
      let after = try await LoopbackHTTP.request(port: port, "GET", "/__apx/requests")
      #expect(after.json == .array([]))
    }
  }

  @Test func anSSEClientResumingAfterDropsGetsEveryEventOnce() async throws {
    let registry = try Self.registry()
    let run = try await MockProcess.with(
      ["shop", "--registry", registry, "--drop-every", "5", "--sse-events", "12"]
    ) { mock in
      let base = try #require(mock.urls["shop"])
      let r = try await APXProcess.run(["call", "--registry", registry, "shop.ticks", "--base-url", base])
      #expect(r.status == 0, "\(r.stderr)")
      let events = try r.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
      #expect(events.map { $0["id"]?.stringValue } == (1...13).map { String($0) })
      #expect(events.last?["event"] == .string("done"))
      #expect(events.dropLast().allSatisfy { $0["data"]?["n"]?.intValue != nil })
      #expect(r.stderr.contains("from 5") && r.stderr.contains("from 10"), "\(r.stderr)")
    }
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(stderr.contains("fault: dropped the stream after event 5: GET /ticks"), "\(stderr)")
  }

  @Test func statefulCollectionsKeepWhatIsWritten() async throws {
    let description = try temporaryFile(
      "crud.json",
      #"""
      {"openapi": "3.0.3", "info": {"title": "Crud", "version": "1"},
       "paths": {
         "/notes": {"post": {"operationId": "create", "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
           "responses": {"201": {"description": "made", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
         "/notes/{id}": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
           "get": {"operationId": "read", "responses": {"200": {"description": "ok"}}},
           "patch": {"operationId": "change", "responses": {"200": {"description": "ok"}}},
           "delete": {"operationId": "remove", "responses": {"204": {"description": "gone"}}}}}}
      """#)
    try await MockProcess.with(["--openapi", description, "--stateful"]) { mock in
      let port = try mock.port()
      let json = ["Content-Type": "application/json"]
      let made = try await LoopbackHTTP.request(port: port, "POST", "/notes", headers: json, body: #"{"text": "hi"}"#)
      #expect(made.status == 201)
      let id = try #require(made.json?["id"]?.intValue)
      let read = try await LoopbackHTTP.request(port: port, "GET", "/notes/\(id)")
      #expect(read.json == .object([JSONMember("id", .int(id)), JSONMember("text", .string("hi"))]))
      let changed = try await LoopbackHTTP.request(
        port: port, "PATCH", "/notes/\(id)", headers: json, body: #"{"text": "bye"}"#)
      #expect(changed.json?["text"] == .string("bye"))
      #expect(try await LoopbackHTTP.request(port: port, "DELETE", "/notes/\(id)").status == 204)
      #expect(try await LoopbackHTTP.request(port: port, "GET", "/notes/\(id)").status == 404)
    }
  }

  @Test func aRecipeRunsAgainstTheMockOfItsAPIs() async throws {
    let registry = try Self.registry()
    let recipe = try temporaryFile(
      "shop-check.json",
      #"""
      {"name": "shop-check", "steps": [
        {"id": "special", "call": "shop.items.special", "expect": {".body.n": 1}, "capture": {"n": ".body.n"}},
        {"id": "order", "call": "shop.orders.create", "with": {"qty": "${steps.special.n}"},
         "expect": {".status": 201, ".body.ok": true}}
      ], "output": {"n": "${steps.special.n}"}}
      """#)
    let r = try await APXProcess.run(["run", recipe, "--registry", registry, "--mock"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try JSONParser.parse(r.stdout) == .object([JSONMember("n", .int(1))]))
    #expect(r.stderr.contains("step order (shop.orders.create): ok, status 201"), "\(r.stderr)")
    let refused = try await APXProcess.run(["run", recipe, "--registry", registry, "--mock", "--demo"])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("--mock chooses where the calls go"))
  }

  @Test func theGitHubDescriptionIsServedAsItIs() async throws {
    let description = APXProcess.packageRoot
      .appendingPathComponent("Tests/Fixtures/openapi/github-api.github.com-2022-07-18.json.gz").path
    let run = try await MockProcess.with(["--openapi", description]) { mock in
      let port = try mock.port()
      let issue = try await LoopbackHTTP.request(port: port, "GET", "/repos/octocat/hello/issues/1")
      #expect(issue.status == 200)
      #expect(issue.json?["number"]?.intValue != nil, "\(issue.text.prefix(300))")
      let missing = try await LoopbackHTTP.request(
        port: port, "GET", "/repos/octocat/hello/pulls/1", headers: ["Prefer": "code=404"])
      #expect(missing.status == 404)
      #expect(try await LoopbackHTTP.request(port: port, "GET", "/repos/octocat/hello/pulls/one").status == 400)
    }
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(stderr.contains("more examples of githubs-official-openapi-spec-octokit that do not fit"), "\(stderr)")
  }

  @Test(arguments: [SIGINT, SIGTERM])
  func theMockStopsOnTheSignal(_ signal: Int32) async throws {
    let run = try await MockProcess.with(["shop", "--registry", try Self.registry()], signal: signal) { mock in
      let answer = try await LoopbackHTTP.request(port: try mock.port(), "GET", "/items/special")
      #expect(answer.status == 200)
    }
    #expect(run.signaled && run.status == signal)
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(stderr.contains("apx mock: shop listening on http://127.0.0.1:"), "\(stderr)")
    #expect(!stderr.contains("not served"), "the websocket endpoint is served: \(stderr)")
  }

  @Test(arguments: [
    (["shop", "--openapi", "x.yaml"], "either registry APIs"),
    (["--fail-rate", "2"], "--fail-rate must be from 0 to 1"),
    (["--fail-status", "200"], "--fail-status must be an error status"),
    (["--latency", "fast"], "--latency: latency \"fast\" is not MS or MS+RANDMS"),
    (["--sse-events", "0"], "--sse-events must be from 1 to 100000"),
    (["--port", "70000"], "--port must be from 0 to 65535"),
    (["--token-lifetime", "0"], "--token-lifetime must be from 1 to 1000000000 seconds"),
    (["--replay", "x.har", "--token-lifetime", "5"], "--token-lifetime cannot be used with --replay"),
    (["--max-generated-size", "10"], "--max-generated-size must be from 1024 to 1073741824 bytes"),
    (["--replay", "x.har", "--max-generated-size", "5000"], "--max-generated-size cannot be used with --replay"),
  ])
  func badFlagsAreRefusedWithExit2(arguments: [String], message: String) async throws {
    let r = try await APXProcess.run(["mock"] + arguments)
    #expect(r.status == 2)
    #expect(r.stderr.contains(message), "\(r.stderr)")
  }
}

/// One text carried out of a mock test's body.
final class TextBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = ""

  var text: String { lock.withLock { stored } }
  func set(_ value: String) { lock.withLock { stored = value } }
}
