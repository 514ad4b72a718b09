import Foundation
import Testing

/// The demo's JSON-RPC endpoint is as strict as the specification: every
/// malformed request gets the error code a real server sends.
@Suite("Demo JSON-RPC endpoint")
struct DemoJSONRPCTests {
  static let json = [("Content-Type", "application/json")]

  static func post(_ h: DemoHTTPHarness, _ body: String, headers: [(String, String)] = json) async throws
    -> DemoHTTPHarness.Reply
  {
    try await h.send(.POST, "/jsonrpc", headers: headers, body: body)
  }

  static func errorCode(_ reply: DemoHTTPHarness.Reply) -> Int? {
    (reply.json["error"] as? [String: Any])?["code"] as? Int
  }

  @Test func callsByNameAndByPosition() async throws {
    try await DemoHTTPHarness.run { h in
      let byName = try await Self.post(
        h, #"{"jsonrpc":"2.0","method":"subtract","params":{"minuend":42,"subtrahend":23},"id":1}"#)
      #expect(byName.status == 200)
      #expect(byName.json["result"] as? Int == 19)
      #expect(byName.json["id"] as? Int == 1)
      let byPosition = try await Self.post(h, #"{"jsonrpc":"2.0","method":"subtract","params":[23,42],"id":"x"}"#)
      #expect(byPosition.json["result"] as? Int == -19)
      #expect(byPosition.json["id"] as? String == "x")
    }
  }

  @Test func malformedRequestsGetTheSpecificationsCodes() async throws {
    try await DemoHTTPHarness.run { h in
      let code1 = Self.errorCode(try await Self.post(h, #"{"jsonrpc":"2.0","method":"add",params"#))
      #expect(code1 == -32700)
      let code2 = Self.errorCode(try await Self.post(h, #"{"method":"add","params":[1,2],"id":1}"#))
      #expect(code2 == -32600)
      #expect(
        try await Self.errorCode(Self.post(h, #"{"jsonrpc":"1.0","method":"add","params":[1,2],"id":1}"#)) == -32600)
      let code3 = Self.errorCode(try await Self.post(h, #"{"jsonrpc":"2.0","method":1,"id":1}"#))
      #expect(code3 == -32600)
      let code4 = Self.errorCode(try await Self.post(h, #"{"jsonrpc":"2.0","method":"add","params":3,"id":1}"#))
      #expect(code4 == -32600)
      let code5 = Self.errorCode(try await Self.post(h, #"{"jsonrpc":"2.0","method":"add","id":[1]}"#))
      #expect(code5 == -32600)
      let code6 = Self.errorCode(try await Self.post(h, "[]"))
      #expect(code6 == -32600)
      let code7 = Self.errorCode(try await Self.post(h, #"{"jsonrpc":"2.0","method":"nope","id":1}"#))
      #expect(code7 == -32601)
      #expect(
        try await Self.errorCode(Self.post(h, #"{"jsonrpc":"2.0","method":"add","params":[1],"id":1}"#)) == -32602)
      #expect(
        try await Self.errorCode(Self.post(h, #"{"jsonrpc":"2.0","method":"add","params":{"a":1,"c":2},"id":1}"#))
          == -32602)
    }
  }

  @Test func theHTTPLayerWantsJSON() async throws {
    try await DemoHTTPHarness.run { h in
      let call = #"{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}"#
      let status8 = try await Self.post(h, call, headers: [("Content-Type", "text/plain")]).status
      #expect(status8 == 415)
      let status9 = try await Self.post(h, call, headers: []).status
      #expect(status9 == 415)
      let notAcceptable = try await Self.post(h, call, headers: Self.json + [("Accept", "text/html")])
      #expect(notAcceptable.status == 406)
      #expect(
        try await Self.post(h, call, headers: [("Content-Type", "application/json; charset=utf-8")]).status == 200)
    }
  }

  @Test func notificationsAreNeverAnswered() async throws {
    try await DemoHTTPHarness.run { h in
      let lone = try await Self.post(h, #"{"jsonrpc":"2.0","method":"log","params":{"message":"hi"}}"#)
      #expect(lone.status == 204)
      #expect(lone.body.isEmpty)
      // Not even an unknown method is answered when it is a notification.
      let status10 = try await Self.post(h, #"{"jsonrpc":"2.0","method":"nope"}"#).status
      #expect(status10 == 204)
      let batch = try await Self.post(
        h,
        #"[{"jsonrpc":"2.0","method":"log","params":["a"]},{"jsonrpc":"2.0","method":"log","params":{"message":"b"},"id":5}]"#
      )
      let answers = try JSONSerialization.jsonObject(with: Data(batch.body.utf8)) as? [[String: Any]]
      #expect(answers?.count == 1)
      #expect(answers?.first?["id"] as? Int == 5)
      #expect((answers?.first?["result"] as? [String: Any])?["logged"] as? Int == 3)
    }
  }

  @Test func batchesAnswerEachCallAndFlagInvalidMembers() async throws {
    try await DemoHTTPHarness.run { h in
      let reply = try await Self.post(
        h,
        #"[{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1},1,{"jsonrpc":"2.0","method":"divide","params":[1,0],"id":2}]"#
      )
      let answers = try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [[String: Any]]
      #expect(answers?.count == 3)
      #expect(answers?[0]["result"] as? Int == 3)
      #expect((answers?[1]["error"] as? [String: Any])?["code"] as? Int == -32600)
      #expect((answers?[2]["error"] as? [String: Any])?["code"] as? Int == 1001)
    }
  }
}
