import Testing

@testable import APXCore

@Suite("JSON-RPC messages: requests, params, answers matched by id")
struct JSONRPCMessageTests {
  static func endpoint(_ names: [String]) -> Endpoint {
    Endpoint(
      name: "e", options: .jsonrpc(HTTPRoute(method: "POST", path: "/"), JSONRPCOptions(rpcMethod: "e")),
      params: names.map { Param(name: $0, location: .body) })
  }

  static func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

  @Test func requestsAndNotifications() {
    #expect(
      JSONRPCMessage.request(method: "add", params: .array([.number("1")]), id: 7).compactJSON
        == #"{"jsonrpc":"2.0","method":"add","params":[1],"id":7}"#)
    #expect(
      JSONRPCMessage.request(method: "log", params: nil, id: nil).compactJSON == #"{"jsonrpc":"2.0","method":"log"}"#)
  }

  @Test func paramsByPositionFollowDeclarationOrderWithNullHoles() throws {
    let e = Self.endpoint(["a", "b", "c"])
    let body = try Self.parse(#"{"a":1,"c":3.10}"#)
    let byPosition = try JSONRPCMessage.params(endpoint: e, paramsBy: .position, body: body, explicit: false)
    #expect(byPosition?.compactJSON == "[1,null,3.10]")
    let trailing = try JSONRPCMessage.params(
      endpoint: e, paramsBy: .position, body: try Self.parse(#"{"a":1}"#), explicit: false)
    #expect(trailing?.compactJSON == "[1]")
    let byName = try JSONRPCMessage.params(endpoint: e, paramsBy: .name, body: body, explicit: false)
    #expect(byName?.compactJSON == #"{"a":1,"c":3.10}"#)
    #expect(try JSONRPCMessage.params(endpoint: e, paramsBy: .name, body: nil, explicit: false) == nil)
    #expect(throws: APXError.self) {
      try JSONRPCMessage.params(endpoint: e, paramsBy: .name, body: .string("x"), explicit: true)
    }
  }

  @Test func batchAnswersAreMatchedByIDWhateverTheirOrder() throws {
    let body = try Self.parse(
      #"[{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found","data":"x"}},"#
        + #"{"jsonrpc":"2.0","id":1,"result":{"z":1,"a":9007199254740993}}]"#)
    let answers = try JSONRPCMessage.answers(body, ids: [1, 2], batch: true)
    #expect(answers[0] == .result(try Self.parse(#"{"z":1,"a":9007199254740993}"#)))
    #expect(answers[1] == .error(JSONRPCError(code: -32601, message: "Method not found", data: .string("x"))))
    if case .result(let value) = answers[0] { #expect(value.compactJSON == #"{"z":1,"a":9007199254740993}"#) }
  }

  @Test func answersThatBreakTheSpecificationAreExpectationErrors() throws {
    let cases = [
      #"{"id":1,"result":1}"#,  // no "jsonrpc"
      #"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}"#,  // both
      #"{"jsonrpc":"2.0","id":9,"result":1}"#,  // an id apx did not send
      #"{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"m"}}"#,  // code not a number
      #"[{"jsonrpc":"2.0","id":1,"result":1}]"#,  // an array for a single call
    ]
    for text in cases {
      #expect(throws: APXError.self, "\(text)") {
        try JSONRPCMessage.answers(try Self.parse(text), ids: [1], batch: false)
      }
    }
    let duplicate = try Self.parse(#"[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":1,"result":2}]"#)
    #expect(throws: APXError.self) { try JSONRPCMessage.answers(duplicate, ids: [1], batch: true) }
    let missing = try Self.parse(#"[{"jsonrpc":"2.0","id":1,"result":1}]"#)
    #expect(throws: APXError.self) { try JSONRPCMessage.answers(missing, ids: [1, 2], batch: true) }
  }

  @Test func aLoneErrorWithANullIDAnswersEveryCall() throws {
    let body = try Self.parse(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#)
    let answers = try JSONRPCMessage.answers(body, ids: [1, 2], batch: true)
    #expect(answers.count == 2)
    #expect(answers.allSatisfy { $0 == .error(JSONRPCError(code: -32700, message: "Parse error")) })
  }
}
