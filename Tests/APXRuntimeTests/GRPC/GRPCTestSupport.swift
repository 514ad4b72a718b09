import APXCore
import APXDemoServer
import APXGRPCReflection
import APXRuntime
import Foundation
import Synchronization

/// Records every call event, for assertions.
final class GRPCEventLog: CallEventSink {
  private let events = Mutex<[CallEvent]>([])

  func receive(_ event: CallEvent) throws { events.withLock { $0.append(event) } }

  var all: [CallEvent] { events.withLock { $0 } }

  /// The decoded response messages, in order.
  var messages: [JSONValue] {
    all.compactMap { if case .message(let m) = $0 { m } else { nil } }
  }

  /// Notes (retries, replays), in order.
  var notes: [String] {
    all.compactMap { if case .note(let n) = $0 { n } else { nil } }
  }

  /// `.retrying` events: the attempt about to start and why the previous one failed.
  var retries: [(attempt: Int, reason: String)] {
    all.compactMap { if case .retrying(let a, _, let r) = $0 { (a, r) } else { nil } }
  }

  /// Attempt numbers of the `.requestSent` events.
  var attempts: [Int] {
    all.compactMap { if case .requestSent(_, _, _, let a) = $0 { a } else { nil } }
  }
}

/// Hands out a fixed sequence of tokens: the first request gets the first, a refresh the next.
final class SequenceTokenSource: TokenSource {
  private let tokens: Mutex<[String]>
  private let served = Mutex(0)

  init(_ tokens: [String]) { self.tokens = Mutex(tokens) }

  var requests: Int { served.withLock { $0 } }

  func token(for auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String, forceRefresh: Bool)
    async throws -> String
  {
    served.withLock { $0 += 1 }
    return tokens.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
  }
}

/// A demo gRPC server on a free loopback port and the classnotes registry pointed at it.
struct GRPCHarness: Sendable {
  let server: DemoGRPCServer
  let api: APIDefinition
  var baseURL: String { "grpc://127.0.0.1:\(server.port)" }

  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func classnotes() throws -> APIDefinition {
    try RegistryFiles.load(path: packageRoot.appendingPathComponent("Endpoints/classnotes.json").path)
  }

  /// Starts a server, runs `body`, stops the server (also when `body` throws).
  ///
  /// - Parameters:
  ///   - reflectionOmitsJSONNames, reflectionFault: the demo server's reflection test options.
  static func run<T: Sendable>(
    requireAuth: Bool = false, validateToken: @escaping @Sendable (String) -> Bool = { _ in false },
    reflectionOmitsJSONNames: Bool = false, reflectionFault: DemoReflectionFault? = nil,
    _ body: (GRPCHarness) async throws -> T
  ) async throws -> T {
    let server = try await DemoGRPCServer.start(
      host: "127.0.0.1", port: 0, requireAuth: requireAuth, validateToken: validateToken,
      reflectionOmitsJSONNames: reflectionOmitsJSONNames, reflectionFault: reflectionFault)
    do {
      let result = try await body(GRPCHarness(server: server, api: try classnotes()))
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  /// The endpoint, optionally changed (schema, auth...).
  func endpoint(_ name: String, _ change: (inout Endpoint) -> Void = { _ in }) throws -> Endpoint {
    guard var e = api.endpoint(named: name) else { throw APXError(.usage, "no endpoint \(name)") }
    change(&e)
    return e
  }

  /// Calls an endpoint and returns the event log; errors propagate.
  @discardableResult
  func call(
    _ endpoint: Endpoint, api: APIDefinition? = nil, values: [(String, JSONValue)] = [], data: String? = nil,
    headers: [HeaderField] = [], timeout: Double? = nil, maxEvents: Int? = nil, maxAttempts: Int? = nil,
    baseURL: String? = nil, tokens: (any TokenSource)? = nil, environment: [String: String] = [:],
    settings: GRPCSettings = GRPCSettings(), log: GRPCEventLog = GRPCEventLog(),
    clock: any RetryClock = SystemRetryClock()
  ) async throws -> GRPCEventLog {
    let request = CallRequest(
      api: api ?? self.api, endpoint: endpoint, baseURL: baseURL ?? self.baseURL, environmentName: "demo",
      values: values.map { ($0.0, BoundValue.json($0.1)) }, data: data.map { .json(Array($0.utf8)) },
      headers: headers, timeout: timeout, maxEvents: maxEvents, maxAttemptsOverride: maxAttempts)
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    let environmentCopy = env
    try await HTTPSession.with { session in
      _ = try await GRPCSession.with(settings) { grpc in
        let executor = Executor(
          session: session, grpc: grpc, environment: environmentCopy, tokens: tokens, clock: clock)
        return try await executor.call(request, sink: log)
      }
    }
    return log
  }

  /// The APXError a call throws (nil when it succeeds or throws something else).
  func failure(
    _ endpoint: Endpoint, api: APIDefinition? = nil, values: [(String, JSONValue)] = [], data: String? = nil,
    headers: [HeaderField] = [], timeout: Double? = nil, maxAttempts: Int? = nil, baseURL: String? = nil,
    tokens: (any TokenSource)? = nil, environment: [String: String] = [:]
  ) async -> APXError? {
    do {
      try await call(
        endpoint, api: api, values: values, data: data, headers: headers, timeout: timeout, maxAttempts: maxAttempts,
        baseURL: baseURL, tokens: tokens, environment: environment)
      return nil
    } catch let error as APXError {
      return error
    } catch {
      return APXError(.internalFailure, "not an APXError: \(error)")
    }
  }
}

/// Runs `body` with a TCP port on 127.0.0.1 that refuses connections for as long as `body` runs.
///
/// A socket stays bound to the port and never listens, so connecting gets a reset at once. A
/// port that was bound and released instead could be handed to a server that a parallel test
/// started meanwhile, and the call then met that server: under load a refused-connection test
/// took 19 s and saw another hint.
func withClosedLoopbackPort<T>(_ body: (Int) async throws -> T) async throws -> T {
  #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
  #endif
  guard fd >= 0 else { throw POSIXError(.EMFILE) }
  defer { close(fd) }
  var addr = sockaddr_in()
  addr.sin_family = sa_family_t(AF_INET)
  addr.sin_port = 0
  addr.sin_addr.s_addr = inet_addr("127.0.0.1")
  var len = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafePointer(to: &addr) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
  }
  guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
  _ = withUnsafeMutablePointer(to: &addr) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
  }
  return try await body(Int(UInt16(bigEndian: addr.sin_port)))
}
