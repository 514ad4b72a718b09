import APXCore
import HTTPTypes
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Synchronization

/// The WebSocket half of a `MockAPI`: the handshake of a `kind: "websocket"` endpoint, then its
/// messages (`WebSocketMessagePlan`) and a normal close.
///
/// A refused upgrade (no websocket endpoint at the path, an unreadable fault header) is answered
/// 400 by hummingbird-websocket, whatever the reason. A missing credential is answered as many
/// servers do: the connection is accepted, then closed with 1008 and the reason. An injected
/// failure closes with 1013 (try again later). `drop-every` cuts the connection without a close
/// frame; the next connection to the same path and query resumes after the last message sent.
extension MockAPI {
  /// What a connection gets once upgraded.
  enum WebSocketPlan: Sendable {
    case refuse(String)
    case fail(Int)
    case messages([String], from: Int, dropEvery: Int, resumeKey: String)
    /// A GraphQL endpoint's path, offered graphql-transport-ws: subscriptions answered by example.
    case graphQL(GraphQLExampleAnswer)
  }

  typealias UpgradeResult = ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>>

  /// Decides a handshake: 400 (not upgraded), or the upgrade with the chosen subprotocol and
  /// what the connection will get. Every handshake is logged, after any latency.
  func shouldUpgrade(_ head: HTTPRequest, channel: any Channel) async -> UpgradeResult {
    let target = head.path ?? "/"
    let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
    let query = pathEnd < target.endIndex ? String(target[target.index(after: pathEnd)...]) : nil
    var request = MockRequest(
      method: head.method.rawValue, path: String(target[..<pathEnd]), query: MockRequest.queryPairs(query),
      headers: head.headerFields.map { ($0.name.canonicalName, $0.value) }, body: [])
    var endpointName: String?
    var faultText: String?
    let plan = await webSocketPlan(request, endpointName: &endpointName, fault: &faultText)
    let auth = endpointName.flatMap { name in api.endpoints.first { $0.name == name } }.flatMap { $0.auth ?? api.auth }
    let chosen = Self.chosenSubprotocol(request.offeredSubprotocols, auth: auth)
    if let prefix = auth?.subprotocolPrefix {
      // The token in a subprotocol is a credential: the log says one was offered, never which.
      request.headers = request.headers.map { field in
        guard field.name == "sec-websocket-protocol" else { return field }
        let masked = field.value.split(separator: ",").map { part -> String in
          let name = part.trimmingWhitespace
          return name.hasPrefix(prefix) ? prefix + "***" : name
        }
        return (field.name, masked.joined(separator: ", "))
      }
    }
    log.append(request.logEntry(endpoint: endpointName, status: plan == nil ? 400 : 101, fault: faultText))
    guard let plan else { return .dontUpgrade }
    var headers = HTTPFields()
    if let chosen { headers[.secWebSocketProtocol] = chosen }
    let mock = self
    let shown = request.method + " " + request.path
    return .upgrade(headers) { inbound, outbound, _ in
      try await mock.serve(plan, inbound: inbound, outbound: outbound, channel: channel, shown: shown)
    }
  }

  /// The subprotocol answered: the one carrying the token for an auth in a subprotocol, else the
  /// first offered (a client that offers some expects one chosen).
  static func chosenSubprotocol(_ offered: [String], auth: AuthConfig?) -> String? {
    if let prefix = auth?.subprotocolPrefix, let carrier = offered.first(where: { $0.hasPrefix(prefix) }) {
      return carrier
    }
    if offered.contains(GraphQLTransportWSServer.protocolName) { return GraphQLTransportWSServer.protocolName }
    return offered.first
  }

  private func webSocketPlan(_ request: MockRequest, endpointName: inout String?, fault: inout String?) async
    -> WebSocketPlan?
  {
    // A GraphQL endpoint's path takes POSTs, and the GET of a graphql-transport-ws handshake.
    var asPost = request
    asPost.method = "POST"
    let graphQLRoute: RouteTable.Route? =
      if request.offeredSubprotocols.contains(GraphQLTransportWSServer.protocolName),
        case .found(let route, _) = match(asPost), route.endpoint.kind == .graphql
      {
        route
      } else {
        nil
      }
    let graphQL = graphQLRoute != nil
    guard let route = graphQLRoute ?? { if case .found(let r, _) = match(request) { r } else { nil } }(),
      route.endpoint.kind == .websocket || graphQL
    else { return nil }
    endpointName = route.endpoint.name
    let number = log.nextNumber()
    var faults = options.faults
    if let header = request.header("x-apx-mock-fault") {
      guard let read = try? faults.applying(header: header) else { return nil }
      faults = read
    }
    let (delay, failStatus) = faults.draw(seed: options.seed, number: number)
    if delay > 0 {
      fault = "latency \(delay) ms"
      report("apx mock: fault: latency \(delay) ms: WebSocket \(request.path)")
      try? await Task.sleep(for: .milliseconds(delay))
    }
    if let failStatus {
      fault = "fail \(failStatus)"
      report("apx mock: fault: failed with \(failStatus) (close 1013): WebSocket \(request.path)")
      return .fail(failStatus)
    }
    if let missing = AuthCheck.missing(route.endpoint.auth ?? api.auth, in: request) {
      return .refuse("this endpoint needs \(missing)")
    }
    if expiredToken(request, route.endpoint) != nil {
      fault = "token expired"
      report("apx mock: fault: token expired: WebSocket \(request.path)")
      return .refuse("the access token expired; get a new one from the token endpoint")
    }
    if graphQL {
      return .graphQL(GraphQLExampleAnswer(endpoints: graphQLSiblings(of: route.endpoint), apiName: api.name))
    }
    var generator = ValueGenerator(
      random: SeededRandom(seed: options.seed, key: "GET " + request.path), book: book,
      budget: options.maxGeneratedSize)
    let messages = WebSocketMessagePlan.messages(
      for: route.endpoint, count: options.sseEvents, generator: &generator)
    if generator.overBudget {
      report("apx mock: cannot generate: the messages of WebSocket \(request.path) are over --max-generated-size")
      return .refuse(
        "the messages' schema asks for more than \(options.maxGeneratedSize) bytes: raise --max-generated-size")
    }
    let key = request.path + "?" + request.query.map { $0.name + "=" + $0.value }.joined(separator: "&")
    let from = resume.take(key)
    return .messages(messages, from: min(from, messages.count), dropEvery: faults.dropEvery, resumeKey: key)
  }

  private func serve(
    _ plan: WebSocketPlan, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel,
    shown: String
  ) async throws {
    switch plan {
    case .refuse(let reason):
      try await outbound.close(.policyViolation, reason: reason)
    case .fail(let status):
      try await outbound.close(.unknown(1013), reason: "apx mock failed this connection on purpose (\(status))")
    case .graphQL(let answer):
      try await GraphQLTransportWSServer(answer: answer).serve(inbound: inbound, outbound: outbound)
    case .messages(let messages, let from, let dropEvery, let key):
      try await withThrowingTaskGroup(of: Void.self) { group in
        // Reading the client's frames is what answers its pings and its close.
        group.addTask {
          do {
            for try await _ in inbound {}
          } catch {}
        }
        defer { group.cancelAll() }
        var sent = 0
        for (i, text) in messages.enumerated().dropFirst(from) {
          try await outbound.write(.text(text))
          sent += 1
          if dropEvery > 0, sent == dropEvery, i + 1 < messages.count {
            resume.set(key, i + 1)
            report("apx mock: fault: dropped the connection after message \(i + 1): \(shown)")
            try? await channel.close()
            return
          }
        }
        try await outbound.close(.normalClosure, reason: nil)
      }
    }
  }
}

/// Where a WebSocket connection cut by `drop-every` stopped, per path and query: the next
/// connection there resumes after it, and one that got every message starts over.
final class WebSocketResumePoints: Sendable {
  private let points = Mutex<[String: Int]>([:])

  /// The index to start from, forgetting it.
  func take(_ key: String) -> Int { points.withLock { $0.removeValue(forKey: key) ?? 0 } }

  func set(_ key: String, _ index: Int) { points.withLock { $0[key] = index } }

  func reset() { points.withLock { $0.removeAll() } }
}
