import APXDemoServer
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The header an SSE client sends; the demo's stream routes answer 406 without it.
let eventStream = [("Accept", "text/event-stream")]

/// A demo server on a free loopback port plus an HTTP client, for one test.
struct DemoHTTPHarness: Sendable {
  let server: DemoServer
  let client: HTTPClient

  /// A response with its whole body.
  struct Reply: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: String

    /// The body parsed as a JSON object (empty when it is not one).
    var json: [String: Any] {
      (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }
  }

  /// Starts a server with `options`, runs `body`, then stops client and server (also on errors).
  static func run<Result: Sendable>(
    _ options: DemoServerOptions = .init(),
    _ body: (DemoHTTPHarness) async throws -> Result
  ) async throws -> Result {
    let server = try await DemoServer.start(options)
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let harness = DemoHTTPHarness(server: server, client: client)
    do {
      let result = try await body(harness)
      try await client.shutdown()
      await server.stop()
      return result
    } catch {
      try? await client.shutdown()
      await server.stop()
      throw error
    }
  }

  /// Sends a request to `path` (relative to the server) and collects the body.
  func send(
    _ method: HTTPMethod = .GET, _ path: String, headers: [(String, String)] = [], body: String? = nil
  ) async throws -> Reply {
    var request = HTTPClientRequest(url: server.httpBaseURL + path)
    request.method = method
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let body { request.body = .bytes(ByteBuffer(string: body)) }
    let response = try await client.execute(request, timeout: .seconds(30))
    let bytes = try await response.body.collect(upTo: 64 * 1024 * 1024)
    return Reply(status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes))
  }

  /// Uploads `csv` as a `text/csv` import; `query` is appended to the path (e.g. `?row_delay_ms=1`).
  func createImport(_ csv: String, query: String = "", headers: [(String, String)] = []) async throws -> Reply {
    try await send(.POST, "/api/v2/imports" + query, headers: [("Content-Type", "text/csv")] + headers, body: csv)
  }

  /// Polls the job's status every 10 ms until it is complete or failed.
  ///
  /// Bounded by wall-clock time (60 s), not by a number of polls: on a loaded machine
  /// each poll is slow, and a count could run out before a job of a few rows ends.
  func waitForJob(_ id: String) async throws -> [String: Any] {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(60))
    while clock.now < deadline {
      let status = try await send(.GET, "/api/v2/imports/\(id)").json
      if let state = status["status"] as? String, state == "complete" || state == "failed" { return status }
      try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("import job \(id) did not finish within 60 s")
    return [:]
  }

  /// Reads the body of a GET of `path` as it streams in, until `isEnough` holds for the
  /// text so far or the body ends; returns the text read. Lets a test stop reading a
  /// stream that would run on (the harness closes the connection afterwards).
  func readStream(_ path: String, until isEnough: (String) -> Bool) async throws -> String {
    var request = HTTPClientRequest(url: server.httpBaseURL + path)
    request.headers.add(name: "Accept", value: "text/event-stream")
    let response = try await client.execute(request, timeout: .seconds(30))
    var text = ""
    for try await chunk in response.body {
      text += String(buffer: chunk)
      if isEnough(text) { break }
    }
    return text
  }
}

/// Server-sent events parsed from a `text/event-stream` body (test-side, independent of APXCore).
struct ParsedSSE: Sendable {
  struct Event: Sendable {
    var id: String?
    var name: String?
    var data: String
    var dataLineCount: Int
  }

  var events: [Event] = []
  var retry: Int?
  var comments: [String] = []

  init(_ text: String) {
    var current = Event(id: nil, name: nil, data: "", dataLineCount: 0)
    var hasField = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty {
        if current.dataLineCount > 0 { events.append(current) }
        current = Event(id: nil, name: nil, data: "", dataLineCount: 0)
        hasField = false
        continue
      }
      if line.hasPrefix(":") {
        comments.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces))
        continue
      }
      hasField = true
      let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      let field = String(parts[0])
      var value = parts.count > 1 ? String(parts[1]) : ""
      if value.hasPrefix(" ") { value.removeFirst() }
      switch field {
      case "id": current.id = value
      case "event": current.name = value
      case "retry": retry = Int(value)
      case "data":
        current.data += (current.dataLineCount > 0 ? "\n" : "") + value
        current.dataLineCount += 1
      default: break
      }
    }
    _ = hasField
  }
}
