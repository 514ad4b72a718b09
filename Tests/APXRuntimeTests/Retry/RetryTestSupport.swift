import APXCore
import APXDemoServer
import Foundation
import Synchronization

@testable import APXRuntime

/// A clock tests control: `now()` is a fixed start plus what was slept or
/// advanced, and every requested wait is recorded instead of slept.
final class ManualClock: RetryClock {
  private let state: Mutex<(now: Double, sleeps: [Double])>

  init(start: Double = Date().timeIntervalSince1970) {
    state = Mutex((start, []))
  }

  func now() -> Double { state.withLock { $0.now } }

  func sleep(seconds: Double) async throws {
    try Task.checkCancellation()
    state.withLock {
      $0.sleeps.append(seconds)
      $0.now += max(0, seconds)
    }
  }

  /// Moves time forward without recording a wait (a token ages).
  func advance(by seconds: Double) { state.withLock { $0.now += seconds } }

  /// The waits requested so far, in order.
  var sleeps: [Double] { state.withLock { $0.sleeps } }
}

/// Collects a call's events and body for assertions.
final class RecordingSink: CallEventSink {
  private let state = Mutex<(events: [CallEvent], body: [UInt8])>(([], []))

  func receive(_ event: CallEvent) throws {
    state.withLock {
      $0.events.append(event)
      if case .bodyChunk(let bytes) = event { $0.body += bytes }
    }
  }

  var events: [CallEvent] { state.withLock { $0.events } }
  var body: String { state.withLock { String(decoding: $0.body, as: UTF8.self) } }

  /// Every request that went out: (attempt, headers).
  var requests: [(attempt: Int, url: String, headers: [HeaderField])] {
    events.compactMap {
      if case .requestSent(_, let url, let headers, let attempt) = $0 { return (attempt, url, headers) }
      return nil
    }
  }

  /// The status of every response head received, in order.
  var responseStatuses: [Int] {
    events.compactMap { if case .responseHead(let status, _, _) = $0 { return status } else { return nil } }
  }

  /// Every announced retry: (attempt, wait).
  var retries: [(attempt: Int, after: Double, reason: String)] {
    events.compactMap {
      if case .retrying(let attempt, let after, let reason) = $0 { return (attempt, after, reason) }
      return nil
    }
  }

  /// All text the CLI could show for these events (headers, URLs, reasons).
  var shownText: String {
    events.map { event -> String in
      switch event {
      case .requestSent(let method, let url, let headers, _):
        return "\(method) \(url)\n" + headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
      case .responseHead(let status, _, let headers):
        return "\(status)\n" + headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
      case .retrying(_, _, let reason): return reason
      case .note(let text): return text
      default: return ""
      }
    }.joined(separator: "\n")
  }
}

/// Loads a registry document from text, as `RegistryFiles` would from a file.
func registry(_ json: String, file: String = "test.json") throws -> APIDefinition {
  try RegistryLoader.load(Array(json.utf8), file: file)
}

/// Runs `body` with a demo server and an HTTP session, both closed afterwards.
func withDemo<T: Sendable>(
  _ options: DemoServerOptions = .init(), _ body: (DemoServer, HTTPSession) async throws -> T
) async throws -> T {
  let server = try await DemoServer.start(options)
  do {
    let result = try await HTTPSession.with { session in try await body(server, session) }
    await server.stop()
    return result
  } catch {
    await server.stop()
    throw error
  }
}

/// A call request for `endpoint` of `api` against `baseURL` with string parameter values.
func callRequest(
  _ api: APIDefinition, _ endpoint: String, baseURL: String, values: [String: String] = [:], timeout: Double? = nil,
  maxAttempts: Int? = nil, environment: String = "demo"
) throws -> CallRequest {
  guard let e = api.endpoint(named: endpoint) else { throw APXError(.usage, "no endpoint \(endpoint)") }
  return CallRequest(
    api: api, endpoint: e, baseURL: baseURL, environmentName: environment,
    values: values.sorted { $0.key < $1.key }.map { ($0.key, BoundValue.json(.string($0.value))) }, timeout: timeout,
    maxAttemptsOverride: maxAttempts)
}

/// Requests the demo server counted for routes whose key contains `fragment`.
func requestCount(_ server: DemoServer, _ fragment: String) -> Int {
  server.stats.requestsByRoute.filter { $0.key.contains(fragment) }.map(\.value).reduce(0, +)
}
