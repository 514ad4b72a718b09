import APXCore
import Testing

/// Each class of registry problem gives the right message, hint, file:line:column and JSON path.
@Suite struct RegistryLoaderErrorTests {
  typealias Loc = APXCore.SourceLocation

  /// Asserts one error's message, JSON path and location (the start of `needle` in `text`).
  func expectError(
    _ text: String, message: String, path: String, at needle: String, hint: String? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    guard let error = RegistryFixture.error(text, sourceLocation: sourceLocation) else { return }
    #expect(error.message == message, sourceLocation: sourceLocation)
    #expect(error.path == path, sourceLocation: sourceLocation)
    #expect(error.file == "sample.json", sourceLocation: sourceLocation)
    #expect(error.status == .invalidDefinition, sourceLocation: sourceLocation)
    let expected = RegistryFixture.position(of: needle, in: text)
    #expect(expected != nil, "needle \(needle) not in the document", sourceLocation: sourceLocation)
    #expect(error.location == expected, sourceLocation: sourceLocation)
    if let hint { #expect(error.hint == hint, sourceLocation: sourceLocation) }
  }

  // MARK: syntax

  @Test func syntaxErrorHasLineAndColumn() throws {
    let text = "{\n  \"api\": \"a\",\n  \"endpoints\": {,}\n}"
    let errors = RegistryFixture.errors(text)
    #expect(errors.count == 1)
    let error = try #require(errors.first)
    #expect(error.message.hasPrefix("invalid JSON: "))
    #expect(error.location == Loc(line: 3, column: 17))
    #expect(error.file == "sample.json")
    #expect(error.status == .invalidDefinition)
    #expect(error.hint == "fix the JSON syntax at this position")
    #expect(error.description.hasPrefix("sample.json:3:17: error: invalid JSON: "))
  }

  @Test(arguments: [
    ("{\"api\": \"a\", \"endpoints\": {}", Loc(line: 1, column: 29)),  // unterminated object
    ("{\"api\": \"a\"}\n{}", Loc(line: 2, column: 1)),  // trailing garbage
    ("{\"api\": \"ä\", \"endpoints\": {} ,}", Loc(line: 1, column: 31)),  // trailing comma; columns count scalars
    ("", Loc(line: 1, column: 1)),
  ])
  func syntaxErrors(_ text: String, _ location: Loc) {
    let errors = RegistryFixture.errors(text)
    #expect(errors.count == 1)
    #expect(errors.first?.message.hasPrefix("invalid JSON") == true)
    #expect(errors.first?.location == location)
  }

  @Test func notAnObject() {
    expectError("[1, 2]", message: "expected an object, got array", path: ".", at: "[")
  }

  // MARK: unknown keys

  @Test func unknownTopLevelKeySuggestsTheNearest() {
    let text = RegistryFixture.document(top: #""enviroment": {}"#, endpoints: "")
    expectError(
      text, message: "unknown key \"enviroment\"", path: ".enviroment", at: "{}",
      hint: "did you mean \"environments\"?")
  }

  @Test func unknownEndpointKeySuggestsTheNearest() {
    let text = RegistryFixture.document(
      endpoints: #"    "items.get": { "kind": "rest", "path": "/items", "mehtod": "GET" }"#)
    expectError(
      text, message: "unknown key \"mehtod\"", path: ".endpoints[\"items.get\"].mehtod", at: "\"GET\"",
      hint: "did you mean \"method\"?")
  }

  @Test func unknownKeyWithNothingNearListsTheAllowedKeys() throws {
    let text = RegistryFixture.document(
      endpoints: #"    "e": { "kind": "rest", "path": "/", "params": { "q": { "zzzzzzzzzz": 1 } } }"#)
    let error = try #require(RegistryFixture.error(text))
    #expect(error.message == "unknown key \"zzzzzzzzzz\"")
    #expect(error.path == ".endpoints.e.params.q.zzzzzzzzzz")
    #expect(error.hint?.hasPrefix("allowed keys: in, type, required, default") == true)
  }

  @Test func unknownKeysInNestedBlocks() {
    let cases: [(String, String, String, String)] = [
      (#""retry": { "max_atempts": 3 }"#, "max_atempts", ".retry.max_atempts", "did you mean \"max_attempts\"?"),
      (#""auth": { "type": "bearer", "tokn": "x" }"#, "tokn", ".auth.tokn", "did you mean \"token\"?"),
      (
        #""auth": { "type": "api_key", "name": "k", "value": "v", "location": "query" }"#, "location", ".auth.location",
        "allowed keys: type, in, name, value"
      ),
    ]
    for (top, key, path, hint) in cases {
      let text = RegistryFixture.document(top: top, endpoints: "")
      guard let error = RegistryFixture.error(text) else { continue }
      #expect(error.message == "unknown key \"\(key)\"")
      #expect(error.path == path)
      #expect(error.hint == hint)
    }
  }

  @Test func duplicateKeys() throws {
    let text = #"{"api": "a", "api": "b", "endpoints": {}}"#
    let error = try #require(RegistryFixture.error(text))
    #expect(error.message == "duplicate key \"api\"")
    #expect(error.path == ".api")
  }

  @Test func environmentKeys() {
    let text = """
      {"api": "a",
       "environments": {"demo": {"base_url": "http://x", "baseurl": "http://y"}},
       "endpoints": {}}
      """
    expectError(
      text, message: "unknown key \"baseurl\"", path: ".environments.demo.baseurl", at: "\"http://y\"",
      hint: "did you mean \"base_url\"?")
  }

  /// Environments hold a base URL and a description only: values that change per environment
  /// come from `${env:NAME}`. A `variables` block is refused with that advice (it was once a
  /// field of the model that nothing read).
  @Test func environmentsHaveNoVariables() {
    let text = """
      {"api": "a",
       "environments": {"demo": {"base_url": "http://x", "variables": {"tenant": "t1"}}},
       "endpoints": {}}
      """
    expectError(
      text, message: "an environment has no \"variables\"", path: ".environments.demo.variables",
      at: "{\"tenant\"",
      hint: "an environment holds base_url, description and tls; a value that changes per environment "
        + "comes from the process environment: ${env:NAME} in base_url, headers or auth")
  }

  // MARK: wrong types

  @Test func wrongTypes() {
    let cases: [(endpoint: String, message: String, path: String, needle: String)] = [
      (#"{ "kind": "rest", "path": 5 }"#, "expected a string, got number", ".endpoints.e.path", "5"),
      (
        #"{ "kind": "rest", "path": "/", "idempotent": "yes" }"#, "expected true or false, got string",
        ".endpoints.e.idempotent", "\"yes\""
      ),
      (#"{ "kind": "rest", "path": "/", "params": [] }"#, "expected an object, got array", ".endpoints.e.params", "[]"),
      (
        #"{ "kind": "rest", "path": "/", "expect_status": 200.5 }"#, "expected a whole number, got the fraction 200.5",
        ".endpoints.e.expect_status", "200.5"
      ),
      (
        #"{ "kind": "rest", "path": "/", "expect_status": ["200"] }"#, "expected a whole number, got string",
        ".endpoints.e.expect_status[0]", "\"200\""
      ),
      (
        #"{ "kind": "rest", "path": "/", "timeout": "30s" }"#, "expected a number, got string", ".endpoints.e.timeout",
        "\"30s\""
      ),
      (
        #"{ "kind": "rest", "path": "/", "headers": { "X-N": 1 } }"#, "expected a string, got number",
        ".endpoints.e.headers[\"X-N\"]", "1 }"
      ),
      (
        #"{ "kind": "sse", "path": "/", "until_event": [1] }"#, "expected a string, got number",
        ".endpoints.e.until_event[0]", "1]"
      ),
      (
        #"{ "kind": "rest", "path": "/", "params": { "a": { "enum": "x" } } }"#,
        "expected an array of allowed values, got string", ".endpoints.e.params.a.enum", "\"x\""
      ),
      (
        #"{ "kind": "rest", "path": "/", "params": { "a": "string" } }"#, "expected an object, got string",
        ".endpoints.e.params.a", "\"string\""
      ),
      (#"{ "kind": 1, "path": "/" }"#, "expected a string, got number", ".endpoints.e.kind", "1,"),
      (#""rest""#, "expected an object, got string", ".endpoints.e", "\"rest\""),
    ]
    for c in cases {
      expectError(
        RegistryFixture.document(endpoints: "    \"e\": \(c.endpoint)"), message: c.message, path: c.path, at: c.needle)
    }
  }

  @Test func topLevelTypes() {
    expectError(
      #"{"api": "a", "title": 5, "endpoints": {}}"#, message: "expected a string, got number", path: ".title", at: "5")
    expectError(
      #"{"api": "a", "description": [], "endpoints": {}}"#, message: "expected a string, got array",
      path: ".description", at: "[]")
    expectError(
      #"{"api": "a", "$schema": true, "endpoints": {}}"#, message: "expected a string, got boolean",
      path: "[\"$schema\"]", at: "true")
    expectError(
      #"{"api": "a", "endpoints": []}"#, message: "expected an object, got array", path: ".endpoints", at: "[]")
    expectError(
      #"{"api": "a", "headers": "x", "endpoints": {}}"#, message: "expected an object, got string", path: ".headers",
      at: "\"x\"")
    expectError(
      #"{"api": "a", "auth": "bearer", "endpoints": {}}"#,
      message: "expected an auth object such as {\"type\": \"bearer\", \"token\": \"${env:TOKEN}\"}, got string",
      path: ".auth", at: "\"bearer\"")
  }

  @Test func apiName() {
    expectError(
      #"{"api": "my.api", "endpoints": {}}"#,
      message: "the API name \"my.api\" may hold only letters, digits, '-' and '_'",
      path: ".api", at: "\"my.api\"")
    expectError(#"{"api": "", "endpoints": {}}"#, message: "the API name is empty", path: ".api", at: "\"\"")
    expectError(#"{"endpoints": {}}"#, message: "missing required key \"api\"", path: ".", at: "{")
    expectError(#"{"api": "a"}"#, message: "missing required key \"endpoints\"", path: ".", at: "{")
  }

  // MARK: ranges (GRPCCore traps on some of these, so they must never load)

  @Test(arguments: [
    ("\"max_attempts\": 0", "0 is out of range", "max_attempts", "use a value from 1 to 100"),
    ("\"max_attempts\": 101", "101 is out of range", "max_attempts", "use a value from 1 to 100"),
    ("\"max_attempts\": -3", "-3 is out of range", "max_attempts", "use a value from 1 to 100"),
    ("\"initial_delay\": 0", "0 is out of range", "initial_delay", "use a value from 0.001 to 3600"),
    ("\"initial_delay\": -1", "-1 is out of range", "initial_delay", "use a value from 0.001 to 3600"),
    ("\"max_delay\": 0", "0 is out of range", "max_delay", "use a value from 0.001 to 3600"),
    ("\"max_delay\": 4000", "4000 is out of range", "max_delay", "use a value from 0.001 to 3600"),
    ("\"multiplier\": 0", "0 is out of range", "multiplier", "use a value from 1 to 100"),
    ("\"multiplier\": 0.5", "0.5 is out of range", "multiplier", "use a value from 1 to 100"),
    ("\"on_status\": [503, 99]", "99 is out of range", "on_status[1]", "use a value from 100 to 599"),
  ])
  func retryOutOfRange(_ member: String, _ message: String, _ key: String, _ hint: String) throws {
    for (prefix, top, endpoint) in [
      (".retry", "\"retry\": { \(member) }", ""),
      (".endpoints.e.retry", "", ", \"retry\": { \(member) }"),
    ] {
      let text = RegistryFixture.document(
        top: top, endpoints: "    \"e\": { \"kind\": \"rest\", \"path\": \"/\"\(endpoint) }")
      let error = try #require(RegistryFixture.error(text))
      #expect(error.message == message)
      #expect(error.path == "\(prefix).\(key)")
      #expect(error.hint == hint)
      let valueText = String(member.split(separator: ":", maxSplits: 1)[1].dropFirst())
      let needle = key.hasSuffix("]") ? "99]" : valueText + " }"
      #expect(error.location == RegistryFixture.position(of: needle, in: text))
    }
  }

  @Test func retryRules() {
    expectError(
      RegistryFixture.document(top: #""retry": { "initial_delay": 2, "max_delay": 1 }"#, endpoints: ""),
      message: "max_delay (1.0) is smaller than initial_delay (2.0)", path: ".retry.max_delay", at: "1 }")
    expectError(
      RegistryFixture.document(top: #""retry": { "max_attempts": 2.5 }"#, endpoints: ""),
      message: "expected a whole number, got the fraction 2.5", path: ".retry.max_attempts", at: "2.5")
    expectError(
      RegistryFixture.document(top: #""retry": { "on_status": 503 }"#, endpoints: ""),
      message: "expected an array of HTTP status codes, got number", path: ".retry.on_status", at: "503")
    expectError(
      RegistryFixture.document(top: #""retry": { "on_grpc_codes": [] }"#, endpoints: ""),
      message: "give at least one gRPC status name", path: ".retry.on_grpc_codes", at: "[]")
    expectError(
      RegistryFixture.document(top: #""retry": { "on_grpc_codes": ["UNAVAILBLE"] }"#, endpoints: ""),
      message: "unknown gRPC status \"UNAVAILBLE\"", path: ".retry.on_grpc_codes[0]", at: "\"UNAVAILBLE\"",
      hint: "did you mean \"UNAVAILABLE\"?")
    expectError(
      RegistryFixture.document(top: #""retry": "always""#, endpoints: ""),
      message: "expected an object, got string", path: ".retry", at: "\"always\"")
  }

  @Test func otherRanges() {
    let cases: [(String, String, String, String)] = [
      (#"{ "kind": "rest", "path": "/", "timeout": 0 }"#, "0 is out of range", ".endpoints.e.timeout", "0 }"),
      (
        #"{ "kind": "rest", "path": "/", "expect_status": 600 }"#, "600 is out of range", ".endpoints.e.expect_status",
        "600"
      ),
      (
        #"{ "kind": "sse", "path": "/", "reconnect": { "max_failures": 0 } }"#, "0 is out of range",
        ".endpoints.e.reconnect.max_failures", "0 }"
      ),
      (
        #"{ "kind": "sse", "path": "/", "reconnect": { "delays": [1, -1] } }"#, "-1 is out of range",
        ".endpoints.e.reconnect.delays[1]", "-1]"
      ),
      (
        #"{ "kind": "sse", "path": "/", "reconnect": { "delays": [] } }"#, "give at least one delay in seconds",
        ".endpoints.e.reconnect.delays", "[]"
      ),
      (
        #"{ "kind": "sse", "path": "/", "fallback": { "poll": "e", "until": ".s", "equals": 1, "interval": 0 } }"#,
        "0 is out of range", ".endpoints.e.fallback.interval", "0 }"
      ),
      (
        #"{ "kind": "rest", "path": "/", "auth": { "type": "token_command", "command": "t", "lifetime": 0.5 } }"#,
        "0.5 is out of range", ".endpoints.e.auth.lifetime", "0.5"
      ),
    ]
    for (endpoint, message, path, needle) in cases {
      expectError(
        RegistryFixture.document(endpoints: "    \"e\": \(endpoint)"), message: message, path: path, at: needle)
    }
  }

  // MARK: unknown enumerations

  @Test func unknownKind() {
    expectError(
      RegistryFixture.document(endpoints: #"    "e": { "kind": "ress", "path": "/" }"#),
      message: "unknown kind \"ress\"", path: ".endpoints.e.kind", at: "\"ress\"", hint: "did you mean \"rest\"?")
    expectError(
      RegistryFixture.document(endpoints: #"    "e": { "kind": "soap", "path": "/" }"#),
      message: "unknown kind \"soap\"", path: ".endpoints.e.kind", at: "\"soap\"",
      hint: "use one of rest, sse, grpc, jsonrpc, websocket, graphql")
    expectError(
      RegistryFixture.document(endpoints: #"    "e": { "path": "/" }"#),
      message: "missing required key \"kind\"", path: ".endpoints.e", at: "{ \"path\"")
  }

  @Test func unknownAuthType() {
    expectError(
      RegistryFixture.document(top: #""auth": { "type": "baerer", "token": "x" }"#, endpoints: ""),
      message: "unknown auth type \"baerer\"", path: ".auth.type", at: "\"baerer\"", hint: "did you mean \"bearer\"?")
    expectError(
      RegistryFixture.document(top: #""auth": { "type": "kerberos" }"#, endpoints: ""),
      message: "unknown auth type \"kerberos\"", path: ".auth.type", at: "\"kerberos\"",
      hint:
        "use one of none, bearer, api_key, basic, oauth2_client_credentials, oauth2_authorization_code, oauth2_device_code, token_command"
    )
    expectError(
      RegistryFixture.document(top: #""auth": { "token": "x" }"#, endpoints: ""),
      message: "missing required key \"type\"", path: ".auth", at: "{ \"token\"")
  }

  @Test func authShapes() {
    let cases: [(String, String, String, String)] = [
      (
        #"{ "type": "api_key", "in": "cookie", "name": "k", "value": "v" }"#, "unknown API key location \"cookie\"",
        ".auth.in", "\"cookie\""
      ),
      (#"{ "type": "api_key", "value": "v" }"#, "missing required key \"name\"", ".auth", "{ \"type\""),
      (#"{ "type": "basic", "password": "p" }"#, "missing required key \"username\"", ".auth", "{ \"type\""),
      (
        #"{ "type": "oauth2_client_credentials", "token_url": "/t", "client_id": "i" }"#,
        "missing required key \"client_secret\"", ".auth", "{ \"type\""
      ),
      (
        #"{ "type": "token_command", "command": [] }"#, "token_command needs \"command\": [\"program\", \"arg\", ...]",
        ".auth", "{ \"type\""
      ),
      (#"{ "type": "none", "token": "x" }"#, "unknown key \"token\"", ".auth.token", "\"x\""),
    ]
    for (auth, message, path, needle) in cases {
      expectError(
        RegistryFixture.document(top: "\"auth\": \(auth)", endpoints: ""), message: message, path: path, at: needle)
    }
  }

  @Test func unknownParamLocationAndType() {
    expectError(
      RegistryFixture.document(
        endpoints: #"    "e": { "kind": "rest", "path": "/", "params": { "q": { "in": "querry" } } }"#),
      message: "unknown parameter location \"querry\"", path: ".endpoints.e.params.q.in", at: "\"querry\"",
      hint: "did you mean \"query\"?")
    expectError(
      RegistryFixture.document(
        endpoints: #"    "e": { "kind": "rest", "path": "/", "params": { "q": { "in": "fragment" } } }"#),
      message: "unknown parameter location \"fragment\"", path: ".endpoints.e.params.q.in", at: "\"fragment\"",
      hint: "use path, query, header, cookie, body, form or multipart")
    expectError(
      RegistryFixture.document(
        endpoints: #"    "e": { "kind": "rest", "path": "/", "params": { "q": { "type": "int" } } }"#),
      message: "unknown parameter type \"int\"", path: ".endpoints.e.params.q.type", at: "\"int\"",
      hint: "did you mean \"integer\"?")
    expectError(
      RegistryFixture.document(
        endpoints: #"    "e": { "kind": "rest", "path": "/", "params": { "f": { "type": "file" } } }"#),
      message: "a file parameter must be \"in\": \"body\" or \"multipart\"", path: ".endpoints.e.params.f.type",
      at: "\"file\"")
  }

  @Test func unknownMethodAndBody() {
    expectError(
      RegistryFixture.document(endpoints: #"    "e": { "kind": "rest", "path": "/", "method": "FETCH" }"#),
      message: "unknown HTTP method \"FETCH\"", path: ".endpoints.e.method", at: "\"FETCH\"",
      hint: "use one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS")
    expectError(
      RegistryFixture.document(endpoints: #"    "e": { "kind": "rest", "path": "/", "body": "xml" }"#),
      message: "unknown body encoding \"xml\"", path: ".endpoints.e.body", at: "\"xml\"",
      hint: "use json, form, multipart or raw")
  }

  // MARK: paths and params

  @Test func pathPlaceholderWithoutParam() {
    expectError(
      RegistryFixture.document(endpoints: #"    "items.get": { "kind": "rest", "path": "/items/{id}" }"#),
      message: "the path uses {id} but no parameter \"id\" is declared", path: ".endpoints[\"items.get\"].path",
      at: "\"/items/{id}\"", hint: "add \"params\": {\"id\": {\"in\": \"path\", \"required\": true}}")
  }

  @Test func pathParamNotInPath() {
    expectError(
      RegistryFixture.document(
        endpoints: #"    "items.get": { "kind": "rest", "path": "/items", "params": { "id": { "in": "path" } } }"#),
      message: "path parameter \"id\" does not appear in the path \"/items\"",
      path: ".endpoints[\"items.get\"].params.id",
      at: "{ \"in\": \"path\" }", hint: "add {id} to the path or change \"in\"")
  }

  @Test func apiKeyPlaceholderBelongsToTheAuthNotToParams() {
    // Another name than the auth's: an undeclared placeholder, and the key's segment is missing.
    let errors = RegistryFixture.errors(
      RegistryFixture.document(
        top: #""auth": { "type": "api_key", "in": "path", "name": "key", "value": "v" }"#,
        endpoints: #"    "e": { "kind": "rest", "path": "/{api_key}/x" }"#))
    #expect(
      errors.map(\.message) == [
        "the API key goes in the path segment {key}, but the path \"/{api_key}/x\" has no such segment",
        "the path uses {api_key} but no parameter \"api_key\" is declared",
      ])
    #expect(errors.allSatisfy { $0.path == ".endpoints.e.path" })
    // Endpoint auth "none" switches the API key off: the placeholder then needs a parameter.
    expectError(
      RegistryFixture.document(
        top: #""auth": { "type": "api_key", "in": "path", "name": "key", "value": "v" }"#,
        endpoints: #"    "e": { "kind": "rest", "path": "/{key}/x", "auth": { "type": "none" } }"#),
      message: "the path uses {key} but no parameter \"key\" is declared", path: ".endpoints.e.path", at: "\"/{key}/x\""
    )
    #expect(
      RegistryFixture.load(
        RegistryFixture.document(
          top: #""auth": { "type": "api_key", "in": "path", "name": "key", "value": "v" }"#,
          endpoints: #"    "e": { "kind": "rest", "path": "/{key}/x" }"#)) != nil)
  }

  @Test func apiKeyInPathNeedsItsSegment() {
    let text = RegistryFixture.document(
      top: #""auth": { "type": "api_key", "in": "path", "name": "api_key", "value": "v" }"#,
      endpoints: """
            "ok": { "kind": "rest", "path": "/v1/{api_key}/a" },
            "off": { "kind": "rest", "path": "/b", "auth": { "type": "bearer", "token": "t" } },
            "rpc": { "kind": "grpc", "service": "s", "method": "M" },
            "bad": { "kind": "sse", "path": "/v1/c" }
        """)
    expectError(
      text, message: "the API key goes in the path segment {api_key}, but the path \"/v1/c\" has no such segment",
      path: ".endpoints.bad.path", at: "\"/v1/c\"",
      hint: "add {api_key} to the path, or give this endpoint its own \"auth\"")
  }

  @Test(arguments: [
    ("/items/{id", "unclosed '{' in path \"/items/{id\""),
    ("/items/id}", "unmatched '}' in path \"/items/id}\""),
    ("/items/{}", "empty {} in path \"/items/{}\""),
    ("/items/{a{b}}", "nested '{' in path \"/items/{a{b}}\""),
  ])
  func malformedPaths(_ path: String, _ message: String) {
    expectError(
      RegistryFixture.document(endpoints: "    \"e\": { \"kind\": \"rest\", \"path\": \"\(path)\" }"),
      message: message, path: ".endpoints.e.path", at: "\"\(path)\"")
  }

  @Test func missingPathAndBodyRules() {
    expectError(
      RegistryFixture.document(endpoints: #"    "e": { "kind": "sse" }"#),
      message: "missing required key \"path\"", path: ".endpoints.e", at: "{ \"kind\"")
    expectError(
      RegistryFixture.document(
        endpoints:
          #"    "e": { "kind": "rest", "path": "/", "params": { "a": { "in": "body", "type": "file" }, "b": { "in": "body", "type": "file" } } }"#
      ),
      message: "only one file parameter can be the whole body", path: ".endpoints.e.params", at: "{ \"a\"")
    expectError(
      RegistryFixture.document(
        endpoints:
          #"    "e": { "kind": "rest", "path": "/", "params": { "a": { "in": "body", "type": "file" }, "b": { "in": "body" } } }"#
      ),
      message: "a file body cannot be combined with other body parameters", path: ".endpoints.e.params", at: "{ \"a\"")
  }

  @Test func kindSpecificKeys() {
    let cases: [(String, String, String, String)] = [
      (
        #"{ "kind": "rest", "path": "/", "until_event": "done" }"#, "\"until_event\" applies only to kind \"sse\"",
        ".endpoints.e.until_event", "\"done\""
      ),
      (
        #"{ "kind": "grpc", "service": "s", "method": "M", "reconnect": {} }"#,
        "\"reconnect\" applies only to kinds \"sse\", \"websocket\" and \"graphql\"", ".endpoints.e.reconnect", "{}"
      ),
      (
        #"{ "kind": "rest", "path": "/", "progress": {} }"#,
        "\"progress\" applies only to kinds \"sse\", \"grpc\" and \"websocket\"",
        ".endpoints.e.progress", "{}"
      ),
      (
        #"{ "kind": "rest", "path": "/", "service": "a.S" }"#, "\"service\" applies only to kind \"grpc\"",
        ".endpoints.e.service", "\"a.S\""
      ),
      (
        #"{ "kind": "sse", "path": "/", "retry_codes": ["UNAVAILABLE"] }"#,
        "\"retry_codes\" applies only to kind \"grpc\"", ".endpoints.e.retry_codes", "[\"UNAVAILABLE\"]"
      ),
      (
        #"{ "kind": "grpc", "service": "s", "method": "M", "path": "/x" }"#, "\"path\" does not apply to kind \"grpc\"",
        ".endpoints.e.path", "\"/x\""
      ),
      (#"{ "kind": "grpc", "service": "s" }"#, "missing required key \"method\"", ".endpoints.e", "{ \"kind\""),
      (#"{ "kind": "grpc", "method": "M" }"#, "missing required key \"service\"", ".endpoints.e", "{ \"kind\""),
      (
        #"{ "kind": "grpc", "service": "s", "method": "M", "schema": { "reflection": false } }"#, "no schema source",
        ".endpoints.e.schema", "{ \"reflection\""
      ),
      (
        #"{ "kind": "grpc", "service": "s", "method": "M", "schema": { "protoset": 1 } }"#,
        "expected a string, got number", ".endpoints.e.schema.protoset", "1 }"
      ),
      (
        #"{ "kind": "grpc", "service": "s", "method": "M", "retry_codes": ["BUSY"] }"#, "unknown gRPC status \"BUSY\"",
        ".endpoints.e.retry_codes[0]", "\"BUSY\""
      ),
      (
        #"{ "kind": "grpc", "service": "s", "method": "M", "retry_codes": [] }"#, "give at least one gRPC status name",
        ".endpoints.e.retry_codes", "[]"
      ),
      (
        #"{ "kind": "grpc", "service": "s", "method": "M", "progress": { "percent": ".p" } }"#,
        "unknown key \"percent\"", ".endpoints.e.progress.percent", "\".p\""
      ),
    ]
    for (endpoint, message, path, needle) in cases {
      expectError(
        RegistryFixture.document(endpoints: "    \"e\": \(endpoint)"), message: message, path: path, at: needle)
    }
  }

  @Test func grpcSchemaSources() {
    let cases: [(String, String, String, String)] = [
      (
        #"{ "protoset": "a.protoset", "proto": ["b.proto"] }"#, "choose one schema source, not protoset and proto",
        ".endpoints.e.schema", "{ \"protoset\""
      ),
      (
        #"{ "reflection": true, "protoset": "a.protoset" }"#, "choose one schema source, not reflection and protoset",
        ".endpoints.e.schema", "{ \"reflection\""
      ),
      (#"{ "proto": [] }"#, "give at least one .proto file", ".endpoints.e.schema.proto", "[]"),
      (
        #"{ "reflection": true, "import_paths": ["protos"] }"#, "\"import_paths\" applies only with \"proto\"",
        ".endpoints.e.schema.import_paths", "[\"protos\"]"
      ),
      (
        #"{ "protoset": "a.protoset", "reflection": "no" }"#, "expected true or false, got string",
        ".endpoints.e.schema.reflection", "\"no\""
      ),
      (
        #"{ "proto": ["a.proto"], "import_paths": [1] }"#, "expected a string, got number",
        ".endpoints.e.schema.import_paths[0]", "1]"
      ),
      (#""reflection""#, "expected an object, got string", ".endpoints.e.schema", "\"reflection\" }"),
    ]
    for (schema, message, path, needle) in cases {
      expectError(
        RegistryFixture.document(
          endpoints: "    \"e\": { \"kind\": \"grpc\", \"service\": \"s\", \"method\": \"M\", \"schema\": \(schema) }"),
        message: message, path: path, at: needle)
    }
  }

  // MARK: environments and fallbacks

  @Test func missingBaseURL() {
    let text = RegistryFixture.document(top: #""title": "t""#, endpoints: "")
      .replacingFirst(#"{ "base_url": "https://api.example.com" }"#, with: #"{ "description": "production" }"#)
    expectError(
      text, message: "missing required key \"base_url\"", path: ".environments.prod", at: "{ \"description\"")
  }

  @Test func unsupportedBaseURL() {
    let text = RegistryFixture.document(endpoints: "")
      .replacingFirst("https://api.example.com", with: "ftp://files.example.com")
    expectError(
      text,
      message:
        "base_url \"ftp://files.example.com\" must start with http://, https://, grpc://, grpcs://, ws:// or wss://",
      path: ".environments.prod.base_url", at: "\"ftp://")
  }

  @Test func aWebSocketBaseURLServesOnlyWebSocketEndpoints() {
    let text = RegistryFixture.document(
      endpoints: #"""
            "watch": { "kind": "websocket", "path": "/ws" },
            "list": { "kind": "rest", "method": "GET", "path": "/items" }
        """#
    ).replacingFirst("https://api.example.com", with: "wss://api.example.com")
    expectError(
      text,
      message: "base_url \"wss://api.example.com\" is a WebSocket URL, but the endpoint \"list\" is a rest endpoint",
      path: ".environments.prod.base_url", at: "\"wss://")
    let only = RegistryFixture.document(endpoints: #"    "watch": { "kind": "websocket", "path": "/ws" }"#)
      .replacingFirst("https://api.example.com", with: "wss://api.example.com")
    #expect(throws: Never.self) { try RegistryLoader.load(Array(only.utf8), file: "sample.json") }
  }

  @Test func defaultEnvironmentMustExist() {
    expectError(
      RegistryFixture.document(top: #""default_environment": "prd""#, endpoints: ""),
      message: "no environment named \"prd\"", path: ".default_environment", at: "\"prd\"",
      hint: "did you mean \"prod\"?")
    expectError(
      #"{"api": "a", "default_environment": "local", "endpoints": {}}"#,
      message: "no environment named \"local\"", path: ".default_environment", at: "\"local\"",
      hint: "define it under \"environments\"")
  }

  @Test func fallbackMustPollAKnownEndpoint() {
    let text = RegistryFixture.document(
      endpoints: """
            "items.status": { "kind": "rest", "path": "/s" },
            "items.watch": { "kind": "sse", "path": "/w",
              "fallback": { "poll": "items.stauts", "until": ".s", "equals": "done" } }
        """)
    expectError(
      text, message: "the fallback polls \"items.stauts\", which this API does not define",
      path: ".endpoints[\"items.watch\"].fallback.poll", at: "\"items.stauts\"", hint: "did you mean \"items.status\"?")
    // Its own API's prefix does not hide a typo either.
    let prefixed = text.replacingFirst("\"items.stauts\"", with: "\"sample.items.stauts\"")
    expectError(
      prefixed, message: "the fallback polls \"sample.items.stauts\", which this API does not define",
      path: ".endpoints[\"items.watch\"].fallback.poll", at: "\"sample.items.stauts\"")
  }

  @Test func fallbackRequiredKeys() {
    expectError(
      RegistryFixture.document(
        endpoints: #"    "w": { "kind": "sse", "path": "/w", "fallback": { "poll": "w", "until": ".s" } }"#),
      message: "missing required key \"equals\"", path: ".endpoints.w.fallback", at: "{ \"poll\"",
      hint: "the values of \"until\" that end the polling")
    expectError(
      RegistryFixture.document(
        endpoints: #"    "w": { "kind": "sse", "path": "/w", "fallback": { "until": ".s", "equals": 1 } }"#),
      message: "missing required key \"poll\"", path: ".endpoints.w.fallback", at: "{ \"until\"")
  }

  // MARK: several at once

  @Test func reportsEveryProblemAtOnceInDocumentOrder() throws {
    let text = """
      {
        "api": "sample",
        "titel": "Sample",
        "environments": { "demo": { "base_url": "http://127.0.0.1:8080" } },
        "default_environment": "staging",
        "retry": { "max_attempts": 0, "initial_delay": -1 },
        "endpoints": {
          "a": { "kind": "rest", "path": "/a/{id}" },
          "b": { "kind": "ress", "path": "/b" },
          "c": { "kind": "rest", "path": "/c", "params": { "x": { "in": "fragment" } } }
        }
      }
      """
    let errors = RegistryFixture.errors(text)
    #expect(
      errors.map(\.message) == [
        "unknown key \"titel\"",
        "no environment named \"staging\"",
        "0 is out of range",
        "-1 is out of range",
        "the path uses {id} but no parameter \"id\" is declared",
        "unknown kind \"ress\"",
        "unknown parameter location \"fragment\"",
      ])
    #expect(
      errors.map(\.location) == [
        Loc(line: 3, column: 12), Loc(line: 5, column: 26), Loc(line: 6, column: 30), Loc(line: 6, column: 50),
        Loc(line: 8, column: 36), Loc(line: 9, column: 20), Loc(line: 10, column: 67),
      ])
    #expect(errors.allSatisfy { $0.file == "sample.json" && $0.status == .invalidDefinition })
    let all = APXErrors(errors)
    #expect(all.status == .invalidDefinition)
    let lines = all.description.split(separator: "\n").filter { !$0.hasPrefix("  ") }
    #expect(lines.count == 7)
    #expect(lines.first == "sample.json:3:12: error: unknown key \"titel\" (at .titel)")
    #expect(
      lines.last == "sample.json:10:67: error: unknown parameter location \"fragment\" (at .endpoints.c.params.x.in)")
    #expect(all.description.contains("  hint: did you mean \"title\"?"))
  }
}

extension String {
  /// This string with the first occurrence of `target` replaced (no Foundation in APXCore tests).
  func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let start = indices.first(where: { self[$0...].hasPrefix(target) }) else { return self }
    let end = index(start, offsetBy: target.count)
    return String(self[..<start]) + replacement + String(self[end...])
  }
}
