import APXCore
import Foundation
import NIOCore
import Testing

@testable import APXRuntime

/// A session opens one connection per target for calls that send one request message and one
/// more, coalescing its flushes, for calls that stream requests (`GRPCConnection.makeTransport`).
@Suite("gRPC session: one client per target and request shape", .timeLimit(.minutes(1)))
struct GRPCSessionClientsTests {
  private func request(_ h: GRPCHarness, _ endpoint: Endpoint, values: [(String, JSONValue)] = [], data: String? = nil)
    -> CallRequest
  {
    CallRequest(
      api: h.api, endpoint: endpoint, baseURL: h.baseURL, environmentName: "demo",
      values: values.map { ($0.0, BoundValue.json($0.1)) }, data: data.map { .json(Array($0.utf8)) })
  }

  /// Clients (grpc-swift's) and direct connections the session holds after each of five calls:
  /// two gets, two uploads (a request stream), a get.
  private func counts(direct: Bool) async throws -> [[Int]] {
    try await GRPCHarness.run { h in
      let get = try h.endpoint("lessons.get") { $0.grpc?.schema = .reflection }
      let upload = try h.endpoint("documents.upload") { $0.grpc?.schema = .reflection }
      let chunks = #"[{"filename": "a.txt", "data": "aGVsbG8g"}, {"data": "d29ybGQ="}]"#
      var settings = GRPCSettings()
      settings.directClient = direct
      return try await HTTPSession.with { http in
        try await GRPCSession.with(settings) { grpc in
          let executor = Executor(session: http, grpc: grpc, environment: [:])
          var counts: [[Int]] = []
          for (endpoint, values, data) in [
            (get, [("id", JSONValue.string("les_0001"))], nil), (get, [("id", .string("les_0002"))], nil),
            (upload, [], chunks), (upload, [], chunks), (get, [("id", .string("les_0001"))], nil),
          ] {
            let log = GRPCEventLog()
            _ = try await executor.call(request(h, endpoint, values: values, data: data), sink: log)
            #expect(log.messages.count == 1)
            counts.append([grpc.clientCount, grpc.direct.idleCount])
          }
          return counts
        }
      }
    }
  }

  @Test func singleRequestsShareAClientAndRequestStreamsGetTheirOwn() async throws {
    #expect(try await counts(direct: false) == [[1, 0], [1, 0], [2, 0], [2, 0], [2, 0]])
  }

  /// The direct client carries reflection and the gets on one connection, kept between calls.
  @Test func theDirectClientKeepsOneConnectionAndRequestStreamsGetAClient() async throws {
    #expect(try await counts(direct: true) == [[0, 1], [0, 1], [1, 1], [1, 1], [1, 1]])
  }

  /// Under `.callers` the exchange blocks the caller's thread (the command's loop); under
  /// `.own` it runs on a thread of its own, so the loop stays free.
  @Test(arguments: [(DirectExchangeThread.callers, true), (.own, false)])
  func directExchangesRunWhereTheSessionSays(_ thread: DirectExchangeThread, onTheLoop: Bool) async throws {
    try await GRPCHarness.run { h in
      let target = try GRPCTarget(parsing: h.baseURL)
      let deadline = NIODeadline.now() + .seconds(10)
      let ranOnTheLoop: Bool = try await CommandEventLoop.run {
        try await GRPCSession.with(GRPCSettings(), exchangeThread: thread) { (grpc: GRPCSession) async throws -> Bool in
          try await grpc.direct.exchange(target, deadline: deadline) { (connection: H2Connection) -> Bool in
            connection.isUsable && CommandEventLoop.executor.eventLoop.inEventLoop
          }
        }
      }
      #expect(ranOnTheLoop == onTheLoop)
    }
  }

  /// The direct client connects to the addresses the host check resolved, without a lookup of
  /// its own: a made-up name given the demo's address reaches the demo.
  @Test func directConnectionsGoToTheAddressesTheHostCheckResolved() async throws {
    try await GRPCHarness.run { h in
      let real = try GRPCTarget(parsing: h.baseURL)
      let madeUp = GRPCTarget(host: "apx-made-up-name.invalid", port: real.port, useTLS: false)
      let address = try #require(ResolvedAddress.ipv4(real.host, port: real.port))
      let pool = DirectGRPCPool()
      pool.remember([address], for: madeUp)
      let usable = try await pool.exchange(madeUp, deadline: NIODeadline.now() + .seconds(10)) { $0.isUsable }
      #expect(usable)
    }
  }

  @Test func aRequestStreamWithAProtosetOpensOnlyItsOwnClient() async throws {
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
