import APXCore
import Foundation
import Testing

/// A gRPC call the server may already have run is sent again only when running it twice is
/// harmless: the schema's `idempotency_level`, or `"idempotent": true` in the registry. Against
/// Python's grpcio, which counts the calls it ran (`grpcio_server.py`).
@Suite(
  "gRPC: no replay of a call the server ran", .timeLimit(.minutes(5)),
  .enabled(Comment(rawValue: GRPCIOServer.missing)) { await GRPCIOServer.found() })
struct GRPCReplayTests {
  static let service = "classnotes.v1.ClassNotesAPI"

  static func calls(_ base: String, _ key: String) async throws -> String? {
    let r = try await APXProcess.run(["call", "\(base)/\(service)/GetLesson", "id=calls:\(key)"])
    guard case .string(let count)? = try JSONParser.parse(r.stdout)["title"] else { return nil }
    return count
  }

  /// CreateLesson declares no idempotency: an UNAVAILABLE after the server ran it ends the call.
  @Test func aCallThatIsNotIdempotentRunsOnce() async throws {
    try await GRPCIOServer.run { base in
      let title = "unavailable:once"
      let r = try await APXProcess.run([
        "call", "\(base)/\(Self.service)/CreateLesson", "-d", #"{"lesson": {"title": "\#(title)"}}"#,
      ])
      #expect(r.status == 78, "\(r.stderr)")
      #expect(r.stderr.contains("not idempotent"), "\(r.stderr)")
      #expect(try await Self.calls(base, title) == "1")
    }
  }

  /// GetLesson is `NO_SIDE_EFFECTS` in the schema: retried until it succeeds.
  @Test func aMethodTheSchemaCallsSafeIsRetried() async throws {
    try await GRPCIOServer.run { base in
      let r = try await APXProcess.run(["call", "\(base)/\(Self.service)/GetLesson", "id=flaky:get"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try JSONParser.parse(r.stdout)["title"] == .string("3"))
    }
  }

  /// The registry's `"idempotent": true` allows retries the schema does not.
  @Test func aRegistryEndpointDeclaredIdempotentIsRetried() async throws {
    try await GRPCIOServer.run { base in
      for (idempotent, expected) in [(true, "4"), (false, "1")] {
        let registry = try temporaryFile(
          "replay.json",
          """
          {
            "api": "replay",
            "environments": { "test": { "base_url": "\(base)" } },
            "endpoints": {
              "create": {
                "kind": "grpc", "service": "\(Self.service)", "method": "CreateLesson",
                "schema": { "reflection": true }, "idempotent": \(idempotent),
                "retry": { "max_attempts": 4, "initial_delay": 0.01, "max_delay": 0.01 }
              }
            }
          }
          """)
        let title = "unavailable:\(idempotent)"
        let r = try await APXProcess.run([
          "call", "replay.create", "--registry", registry, "-d", #"{"lesson": {"title": "\#(title)"}}"#,
        ])
        #expect(r.status == 78, "\(r.stderr)")
        #expect(try await Self.calls(base, title) == expected, "idempotent: \(idempotent)")
      }
    }
  }
}
