import APXCore
import APXDemoServer
import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

@testable import APXRuntime

/// Records every wait a watch asks for and returns at once, so reconnection
/// schedules are checked without sleeping.
final class RecordingSleeper: WatchSleeper {
  private let waits = Mutex<[Double]>([])

  func sleep(seconds: Double) async throws {
    try Task.checkCancellation()
    waits.withLock { $0.append(seconds) }
    // Let the demo job advance between immediate polls.
    await Task.yield()
  }

  /// The waits requested so far, in order.
  var recorded: [Double] { waits.withLock { $0 } }
}

/// Collects a watch's events.
final class WatchEventLog: CallEventSink {
  private let events = Mutex<[CallEvent]>([])

  func receive(_ event: CallEvent) throws {
    events.withLock { $0.append(event) }
  }

  var all: [CallEvent] { events.withLock { $0 } }

  /// The printed items, in order.
  var messages: [JSONValue] {
    all.compactMap { if case .message(let value) = $0 { return value } else { return nil } }
  }

  /// `.reconnecting` waits, in order.
  var reconnectWaits: [Double] {
    all.compactMap { if case .reconnecting(let after, _, _) = $0 { return after } else { return nil } }
  }

  /// `Last-Event-ID` of every request sent (nil when absent).
  var lastEventIDsSent: [String?] {
    all.compactMap {
      if case .requestSent(_, _, let headers, _) = $0 {
        return .some(headers.first { $0.name.lowercased() == "last-event-id" }?.value)
      }
      return nil
    }
  }

  var fellBack: Bool {
    all.contains { if case .fellBackToPolling = $0 { return true } else { return false } }
  }

  /// Fractions of the `.progress` events.
  var fractions: [Double?] {
    all.compactMap { if case .progress(let fraction, _, _) = $0 { return fraction } else { return nil } }
  }
}

/// The watch tests' world: a demo server, an HTTP session and the books registry.
struct WatchHarness: Sendable {
  let server: DemoServer
  let session: HTTPSession
  let client: HTTPClient

  /// Runs `body` with a fresh demo server on port 0; everything is closed afterwards.
  static func run<T: Sendable>(_ body: (WatchHarness) async throws -> T) async throws -> T {
    let server = try await DemoServer.start(DemoServerOptions())
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    do {
      let result = try await HTTPSession.with { session in
        try await body(WatchHarness(server: server, session: session, client: client))
      }
      try await client.shutdown()
      await server.stop()
      return result
    } catch {
      try? await client.shutdown()
      await server.stop()
      throw error
    }
  }

  /// The repository's `Endpoints/books.json`, with text replacements applied
  /// (e.g. a shorter reconnect schedule).
  static func booksAPI(replacing replacements: [(String, String)] = []) throws -> APIDefinition {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    var text = try String(contentsOf: root.appendingPathComponent("Endpoints/books.json"), encoding: .utf8)
    for (old, new) in replacements {
      guard text.contains(old) else { throw APXError(.usage, "books.json no longer contains \(old)") }
      text = text.replacingOccurrences(of: old, with: new)
    }
    return try RegistryLoader.load(Array(text.utf8), file: "books.json")
  }

  /// The reconnect block of books.json, for replacements.
  static let reconnectBlock = #""reconnect": { "delays": [1, 2, 5, 10], "max_failures": 3 }"#

  /// Creates an import of `rows` rows with fault-injection `query` (e.g. `drop_every=7`); returns its job id.
  func createImport(rows: Int, query: String) async throws -> String {
    let csv = "title,author\n" + (1...rows).map { "Book \($0),Author \($0)" }.joined(separator: "\n") + "\n"
    var request = HTTPClientRequest(url: server.httpBaseURL + "/api/v2/imports?" + query)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "text/csv")
    request.body = .bytes(ByteBuffer(string: csv))
    let response = try await client.execute(request, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 1 << 20)
    let json = try JSONParser.parse(Array(body.readableBytesView))
    guard response.status.code == 202, let id = json["job_id"]?.stringValue else {
      throw APXError(.expectation, "import not created: \(response.status) \(String(buffer: body))")
    }
    return id
  }

  /// Every event of a finished job as the server stores it — read with plain
  /// HTTP and `ParsedSSE`, independent of APXCore's parser — resuming with
  /// `Last-Event-ID` when the job's stream is cut.
  func referenceEvents(_ jobID: String) async throws -> [(id: String?, event: String, data: String)] {
    var events: [(id: String?, event: String, data: String)] = []
    for _ in 0..<1000 {
      var request = HTTPClientRequest(url: server.httpBaseURL + "/api/v2/imports/\(jobID)/stream")
      request.headers.add(name: "Accept", value: "text/event-stream")
      if let last = events.last?.id { request.headers.add(name: "Last-Event-ID", value: last) }
      let response = try await client.execute(request, timeout: .seconds(30))
      let body = try await response.body.collect(upTo: 64 << 20)
      for event in ParsedSSE(String(buffer: body)).events {
        events.append((event.id, event.name ?? "message", event.data))
      }
      if let last = events.last, last.event == "complete" || last.event == "error" { return events }
    }
    throw APXError(.expectation, "the job's stream never reached its final event")
  }

  /// A watch request for `books.imports.watch` of `jobID`.
  func watchRequest(_ api: APIDefinition, jobID: String, maxEvents: Int? = nil, timeout: Double? = nil) throws
    -> CallRequest
  {
    guard let endpoint = api.endpoint(named: "imports.watch") else {
      throw APXError(.usage, "books.json has no imports.watch")
    }
    return CallRequest(
      api: api, endpoint: endpoint, baseURL: server.httpBaseURL, environmentName: "demo",
      values: [("job_id", .json(.string(jobID)))], timeout: timeout, maxEvents: maxEvents)
  }

  /// A watch whose waits are recorded instead of slept.
  func watch(_ sleeper: RecordingSleeper) -> SSEWatch {
    SSEWatch(executor: Executor(session: session, environment: [:]), sleeper: sleeper)
  }
}
