import APXCore
import Foundation
import Testing

@testable import APXRuntime

/// A session opens one client (connection) per target, shared by reflection and by calls of
/// every shape (`GRPCSession.client`).
@Suite("gRPC session: one client per target", .timeLimit(.minutes(5)))
struct GRPCSessionClientsTests {
  private func request(_ h: GRPCHarness, _ endpoint: Endpoint, values: [(String, JSONValue)] = [], data: String? = nil)
    -> CallRequest
  {
    CallRequest(
      api: h.api, endpoint: endpoint, baseURL: h.baseURL, environmentName: "demo",
      values: values.map { ($0.0, BoundValue.json($0.1)) }, data: data.map { .json(Array($0.utf8)) })
  }

  /// Clients (connections) the session holds after each of five calls: two gets, two uploads
  /// (a request stream), a get.
  @Test func everyCallToATargetSharesOneClient() async throws {
    let counts = try await GRPCHarness.run { h in
      let get = try h.endpoint("lessons.get") { $0.setGRPC(\.schema, .reflection) }
      let upload = try h.endpoint("documents.upload") { $0.setGRPC(\.schema, .reflection) }
      let chunks = #"[{"filename": "a.txt", "data": "aGVsbG8g"}, {"data": "d29ybGQ="}]"#
      return try await HTTPSession.with { http in
        try await GRPCSession.with(GRPCSettings()) { grpc in
          let executor = Executor(session: http, grpc: grpc, environment: [:])
          var counts: [Int] = []
          for (endpoint, values, data) in [
            (get, [("id", JSONValue.string("les_0001"))], nil), (get, [("id", .string("les_0002"))], nil),
            (upload, [], chunks), (upload, [], chunks), (get, [("id", .string("les_0001"))], nil),
          ] {
            let log = GRPCEventLog()
            _ = try await executor.call(request(h, endpoint, values: values, data: data), sink: log)
            #expect(log.messages.count == 1)
            counts.append(grpc.clientCount)
          }
          return counts
        }
      }
    }
    #expect(counts == [1, 1, 1, 1, 1])
  }

  @Test func aRequestStreamWithAProtosetOpensOneClient() async throws {
    try await GRPCHarness.run { h in
      let upload = try h.endpoint("documents.upload")
      let count = try await HTTPSession.with { http in
        try await GRPCSession.with(GRPCSettings()) { grpc in
          let log = GRPCEventLog()
          _ = try await Executor(session: http, grpc: grpc, environment: [:]).call(
            request(h, upload, data: #"{"filename": "a.txt", "data": "aGVsbG8="}"#), sink: log)
          #expect(log.messages.first?["chunkCount"] == .number("1"))
          return grpc.clientCount
        }
      }
      #expect(count == 1)
    }
  }
}
