import APXCore
import APXDemoServer
import Foundation
import Testing

@testable import APXRuntime

/// JSON-RPC through the executor against the demo's strict endpoint.
@Suite("JSON-RPC calls")
struct JSONRPCCallTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func calc() throws -> APIDefinition {
    try RegistryFiles.load(path: packageRoot.appendingPathComponent("Endpoints/calc.json").path)
  }

  static func request(_ api: APIDefinition, _ name: String, _ values: [(String, JSONValue)], base: String) throws
    -> CallRequest
  {
    guard let endpoint = api.endpoint(named: name) else { throw APXError(.usage, "no \(name)") }
    return CallRequest(
      api: api, endpoint: endpoint, baseURL: base, environmentName: "demo",
      values: values.map { ($0.0, BoundValue.json($0.1)) })
  }

  /// Runs `body` with an executor and the demo server's base URL.
  static func run(_ body: (Executor, APIDefinition, String) async throws -> Void) async throws {
    let server = try await DemoServer.start(DemoServerOptions())
    do {
      try await HTTPSession.with { session in
        try await body(Executor(session: session, environment: [:]), try calc(), server.httpBaseURL)
      }
      await server.stop()
    } catch {
      await server.stop()
      throw error
    }
  }

  @Test func aResultIsTheBodyByNameAndByPosition() async throws {
    try await Self.run { executor, api, base in
      let add = RecordingSink()
      _ = try await executor.call(
        try Self.request(api, "add", [("a", .string("40")), ("b", .string("2"))], base: base), sink: add)
      #expect(add.body == "42")
      let subtract = RecordingSink()
      _ = try await executor.call(
        try Self.request(api, "subtract", [("minuend", .number("42")), ("subtrahend", .number("23"))], base: base),
        sink: subtract)
      #expect(subtract.body == "19")
      // Sent by position: [42, 23], in declaration order.
      let sent = subtract.events.compactMap { if case .requestSent(_, _, let h, _) = $0 { h } else { nil } }
      #expect(sent.first?.contains { $0.name == "Content-Type" && $0.value == "application/json" } == true)
    }
  }

  @Test func numbersAndKeyOrderSurvive() async throws {
    try await Self.run { executor, api, base in
      let sink = RecordingSink()
      _ = try await executor.call(try Self.request(api, "constants", [], base: base), sink: sink)
      #expect(
        sink.body
          == #"{"zeta":1,"alpha":9007199254740993,"price":1.10,"tiny":1e-7,"huge":123456789012345678901234567890}"#)
    }
  }

  @Test func anErrorObjectExits11WithCodeMessageAndData() async throws {
    try await Self.run { executor, api, base in
      let sink = RecordingSink()
      var failure: APXError?
      do {
        _ = try await executor.call(
          try Self.request(api, "divide", [("dividend", .number("7")), ("divisor", .number("0"))], base: base),
          sink: sink)
      } catch let error as APXError {
        failure = error
      }
      #expect(failure?.status == .jsonrpcError)
      #expect(failure?.message.contains("1001 division by zero") == true)
      #expect(failure?.cause?.contains(#""dividend":7"#) == true)
      #expect(sink.body.isEmpty)
    }
  }

  @Test func aNotificationExpectsNoAnswer() async throws {
    try await Self.run { executor, api, base in
      let sink = RecordingSink()
      let outcome = try await executor.call(
        try Self.request(api, "log", [("message", .string("hi"))], base: base), sink: sink)
      #expect(outcome.status == 204)
      #expect(sink.body.isEmpty)
    }
  }

  @Test func aBatchPrintsTheAnswersInCallOrderAndFailsOnAnyError() async throws {
    try await Self.run { executor, api, base in
      let ok = RecordingSink()
      _ = try await executor.call(
        batch: [
          try Self.request(api, "add", [("a", .number("1")), ("b", .number("2"))], base: base),
          try Self.request(api, "log", [("message", .string("x"))], base: base),
          try Self.request(api, "subtract", [("minuend", .number("5")), ("subtrahend", .number("3"))], base: base),
        ], sink: ok)
      #expect(ok.body == #"[{"id":1,"result":3},{"id":3,"result":2}]"#)

      let failing = RecordingSink()
      var failure: APXError?
      do {
        _ = try await executor.call(
          batch: [
            try Self.request(api, "divide", [("dividend", .number("1")), ("divisor", .number("0"))], base: base),
            try Self.request(api, "add", [("a", .number("1")), ("b", .number("1"))], base: base),
          ], sink: failing)
      } catch let error as APXError {
        failure = error
      }
      #expect(failure?.status == .jsonrpcError)
      #expect(failure?.message.contains("1 of 2 calls in the batch failed") == true)
      #expect(failing.body.hasPrefix(#"[{"id":1,"error":{"code":1001"#))
      #expect(failing.body.hasSuffix(#"{"id":2,"result":2}]"#))
    }
  }
}
