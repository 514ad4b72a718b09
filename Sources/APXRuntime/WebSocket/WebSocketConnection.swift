import APXCore
import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOWebSocket
import Synchronization

/// One resolved WebSocket connection attempt: the handshake request (URL with its query, headers
/// with credentials), the subprotocols offered, and the messages sent once it opens.
struct WebSocketAttempt: Sendable {
  var plan: HTTPRequestPlan
  var subprotocols: [String]
  var messages: [String]
  var mask: SecretMask
  /// The token the auth put in a subprotocol or header, for a refresh to replace.
  var token: String?
  /// A GraphQL subscription's protocol, which `messages` opens with its `connection_init`.
  var graphQL: GraphQLTransportWS?
}

/// What a WebSocket watch carries from connection to connection.
final class WebSocketWatchState: @unchecked Sendable {
  var delivery: WebSocketDelivery
  /// The latest connection handed at least one message on.
  var deliveredMessages = false
  /// Why the latest connection ended early, for the `.reconnecting` event.
  var interruption: String?
  /// A GraphQL subscription's results, delivered instead of the messages themselves.
  var graphQL: GraphQLResultDelivery?

  init(delivery: WebSocketDelivery) { self.delivery = delivery }
}

/// The WebSocket transport: one connection of a watch. Sends the handshake, the endpoint's
/// messages, then reads messages until a stop condition, a close frame, or a drop. A drop
/// throws an `AttemptFailure` with an outcome (the watch reconnects); a refused handshake or a
/// close with a failure code throws one without (401, 403 and close 1008 say the credentials
/// were refused, so the auth layer refreshes once).
struct WebSocketConnection: Transport {
  let session: HTTPSession
  let environment: [String: String]
  /// `API.ENDPOINT` or the URL's `GET /path`, for messages.
  let endpointName: String
  let options: WebSocketOptions
  let state: WebSocketWatchState
  /// A GraphQL subscription: the connection speaks graphql-transport-ws.
  var graphQL: GraphQLEnvelope? = nil

  func resolve(_ request: CallRequest, credentials: Credentials) async throws -> WebSocketAttempt {
    let http = try await HTTPAttempt.resolve(request, environment: environment, credentials: credentials)
    var plan = http.plan
    var mask = http.mask
    var messages: [String] = []
    var graphQLProtocol: GraphQLTransportWS?
    if let graphQL {
      // The body holds the variables; the credentials travel in connection_init too.
      let transport = GraphQLTransportWS(request: try graphQL.request(variablesIn: plan.body), name: graphQL.name)
      messages.append(
        transport.initMessage(credentials: GraphQLTransportWS.credentials(in: plan, auth: credentials.auth)))
      graphQLProtocol = transport
      plan.method = "GET"
    } else if case .bytes(let bytes, _) = plan.body {
      messages.append(String(decoding: bytes, as: UTF8.self))
    }
    plan.body = .none
    plan.headers.removeAll { $0.name.lowercased() == "content-type" || $0.name.lowercased() == "accept" }
    for message in options.send {
      switch message {
      case .string(let text):
        messages.append(try TemplateResolver.resolveText(text, environment: environment, mask: &mask))
      default:
        let text = message.compactJSON
        messages.append(try TemplateResolver.resolveText(text, environment: environment, mask: &mask))
      }
    }
    var subprotocols: [String] = graphQL == nil ? [] : [GraphQLTransportWS.subprotocol]
    var token = AuthApplier.bearerToken(in: plan)
    if let carried = WebSocketSubprotocolCredential.take(from: &plan, auth: credentials.auth) {
      subprotocols.append(carried.subprotocol)
      token = carried.token
    }
    for template in options.subprotocols {
      let value = try TemplateResolver.resolveText(template, environment: environment, mask: &mask)
      WebSocketSecrets.register(subprotocol: value, in: &mask)
      subprotocols.append(value)
    }
    return WebSocketAttempt(
      plan: plan, subprotocols: subprotocols, messages: messages, mask: mask, token: token, graphQL: graphQLProtocol)
  }

  /// A watch only reads (and resends the same opening messages): reconnecting is safe.
  func retrySafety(of attempt: WebSocketAttempt) -> AttemptSafety { .safe }

  func presentedToken(in attempt: WebSocketAttempt) -> String? { attempt.token }

  func send(_ attempt: WebSocketAttempt, context: AttemptContext, sink: any CallEventSink) async throws -> CallOutcome {
    let mask = attempt.mask
    state.deliveredMessages = false
    state.interruption = nil
    state.graphQL?.mask = mask
    guard let target = WebSocketHandshake.target(attempt.plan.url) else {
      throw AttemptFailure(
        APXError(
          .usage, "\(mask.mask(attempt.plan.url)) is not a ws:// or wss:// URL",
          hint: "a WebSocket endpoint's base URL is ws://, wss://, http:// or https://"))
    }
    var headers = session.cookies.attach(to: attempt.plan).headers
    if !attempt.subprotocols.isEmpty {
      headers.append(HeaderField("Sec-WebSocket-Protocol", attempt.subprotocols.joined(separator: ", ")))
    }
    // `--subprotocol` and `-H` were checked when read; this catches `${env:...}` values, tokens
    // and registry headers. Never sent (a CR or LF would add a header) and never retried.
    for subprotocol in attempt.subprotocols {
      if let problem = HeaderSyntax.subprotocolProblem(subprotocol) {
        throw AttemptFailure(
          APXError(.usage, problem, hint: "check the environment variables and credentials that fill the subprotocol"))
      }
    }
    for h in headers {
      if let problem = HeaderSyntax.problem(name: h.name, value: h.value) {
        throw AttemptFailure(
          APXError(.usage, problem, hint: "check the environment variables and credentials that fill this header"))
      }
    }
    try sink.receive(
      .requestSent(
        method: "GET", url: mask.mask(attempt.plan.url), headers: mask.mask(headers), attempt: context.number))
    try sink.receive(.secrets(mask))
    let proxy = session.proxy(for: attempt.plan.url)
    if let proxy { try sink.receive(.proxy(mask.mask(proxy.display))) }
    let result: WebSocketHandshakeResult
    do {
      let tls = target.tls ? try session.tls.configuration() : nil
      let shown = (target.tls ? "wss://" : "ws://") + target.hostHeader
      result = try await WebSocketHandshake.open(
        target, headers: headers, eventLoop: session.eventLoop, tls: tls, maxMessageSize: options.maxMessageSize,
        connectTimeout: .seconds(10), proxy: proxy.map { ($0, shown) })
    } catch let error as APXError {
      throw AttemptFailure(error)
    } catch WebSocketHandshakeError.badUpgrade(let reason) {
      // A server that answers the handshake wrongly answers it so again: no retry.
      throw AttemptFailure(
        APXError(
          .remoteFailure, "\(endpointName): the WebSocket handshake failed: \(mask.mask(reason))",
          hint: "the server's upgrade answer breaks RFC 6455 (section 4.1); -v shows its headers"))
    } catch WebSocketHandshakeError.closedBeforeAnswer {
      // Cancelled (the deadline, Ctrl-C): apx closed it, not the server.
      try Task.checkCancellation()
      throw interrupted(
        "the server closed the connection before answering the handshake",
        APXError(.network, "\(endpointName): the server closed the connection before answering the handshake"))
    } catch {
      try Task.checkCancellation()
      // A certificate that did not verify is said as the problem it is, as for https://.
      let error =
        await HTTPTLSFailure.diagnose(
          error, url: attempt.plan.url, on: session.eventLoop, deadline: context.deadline, probe: proxy == nil) ?? error
      let mapped = NetworkErrorMapper.map(error, url: attempt.plan.url, timeout: nil)
      guard mapped.status != .usage, let outcome = NetworkErrorMapper.retryOutcome(of: error, mapped: mapped) else {
        throw AttemptFailure(mapped)
      }
      state.interruption = mapped.message
      throw AttemptFailure(mapped, outcome: outcome)
    }
    switch result {
    case .refused(let head, let body):
      let status = Int(head.status.code)
      let fields = head.headers.map { HeaderField($0.name, $0.value) }
      try sink.receive(.responseHead(status: status, version: "\(head.version)", headers: mask.mask(fields)))
      let error = RESTCall.statusError(status: status, body: body, plan: attempt.plan, expected: [101], mask: mask)
      var failure = AttemptFailure(error, credentialsRejected: status == 401 || status == 403)
      if status == 401 || status == 403 { failure.outcome = .status(status) }
      throw failure
    case .upgraded(let frames, let head):
      let fields = head.headers.map { HeaderField($0.name, $0.value) }
      session.cookies.store(fields, from: attempt.plan.url)
      try sink.receive(.responseHead(status: 101, version: "\(head.version)", headers: mask.mask(fields)))
      return try await converse(over: frames, attempt: attempt, sink: sink, fields: fields)
    }
  }

  /// Sends the opening messages, then reads until the watch stops or the connection ends.
  private func converse(
    over frames: NIOAsyncChannel<[WebSocketFrame], WebSocketFrame>, attempt: WebSocketAttempt,
    sink: any CallEventSink, fields: [HeaderField]
  ) async throws -> CallOutcome {
    let outcome = CallOutcome(status: 101, headers: fields)
    let pings = PingState()
    let activity = MessageActivity()
    return try await frames.executeThenClose { inbound, outbound in
      let writer = WebSocketFrameWriter(outbound: outbound, sink: sink)
      for message in attempt.messages { try await writer.send(.text, ByteBuffer(string: message)) }
      return try await withThrowingTaskGroup(of: ConversationEnd.self) { group in
        if options.sendStdinLines {
          group.addTask {
            try await WebSocketStdin.sendLines(writer)
            return .inputEnded
          }
        }
        if let interval = options.pingInterval {
          group.addTask {
            while true {
              try await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
              guard pings.ping() else { return .pingMissed }
              try await writer.send(.ping, ByteBuffer(string: "apx"))
            }
          }
        }
        group.addTask {
          .finished(
            try await read(
              inbound, writer: writer, pings: pings, activity: activity, graphQL: attempt.graphQL, sink: sink,
              outcome: outcome))
        }
        defer { group.cancelAll() }
        while let next = try await group.next() {
          switch next {
          case .finished(let outcome): return outcome
          case .inputEnded:
            // Stdin's end closes the conversation once the answers are in: after half a second
            // without a message (a server that answers each line has answered the last). A
            // server that never answers the close is left 5 s later, as RFC 6455 (7.1.1) allows.
            group.addTask {
              while !activity.quiet(for: 0.5) { try await Task.sleep(for: .milliseconds(100)) }
              try? await writer.close(code: 1000, reason: nil)
              try await Task.sleep(for: .seconds(5))
              return .finished(outcome)
            }
            continue
          case .pingMissed:
            throw interrupted(
              "no pong answered a ping within \(NumberText.plain(options.pingInterval ?? 0))s",
              APXError(.network, "\(endpointName): the server did not answer a ping"))
          }
        }
        return outcome
      }
    }
  }

  /// How one of a conversation's tasks ended.
  private enum ConversationEnd: Sendable {
    case finished(CallOutcome)
    case inputEnded
    case pingMissed
  }

  private func read(
    _ inbound: NIOAsyncChannelInboundStream<[WebSocketFrame]>, writer: WebSocketFrameWriter, pings: PingState,
    activity: MessageActivity, graphQL: GraphQLTransportWS?, sink: any CallEventSink, outcome: CallOutcome
  ) async throws -> CallOutcome {
    do {
      for try await batch in inbound {
        for frame in batch {
          try writer.noteReceived(frame)
          activity.note()
          // NIO's frame limit is at least 125 bytes (a control frame's most), so a limit below
          // that is held here, for messages.
          if frame.opcode == .text || frame.opcode == .binary, frame.length > options.maxMessageSize {
            throw AttemptFailure(tooLarge(NIOWebSocketError.invalidFrameLength))
          }
          // RFC 6455 (8.1): a text message that is not UTF-8 fails the connection with 1007;
          // replacing the bad bytes would print text the server never sent.
          if frame.opcode == .text, String(validating: frame.unmaskedData.readableBytesView, as: UTF8.self) == nil {
            try? await writer.close(code: 1007, reason: nil)
            throw AttemptFailure(violation("it sent a text message that is not valid UTF-8 (closed with 1007)"))
          }
          // A GraphQL subscription's text messages are graphql-transport-ws, not output.
          if frame.opcode == .text, let graphQL {
            if try await step(graphQL, frame: frame, writer: writer, sink: sink) == .stop {
              try sink.receive(.batchEnd)
              try? await writer.close(code: 1000, reason: nil)
              return outcome
            }
            continue
          }
          switch frame.opcode {
          case .text, .binary:
            let value =
              frame.opcode == .text
              ? WebSocketMessageValue.text(frame.unmaskedData.readableBytesView)
              : WebSocketMessageValue.binary(frame.unmaskedData.readableBytesView)
            state.deliveredMessages = true
            if try state.delivery.deliver(value, to: sink) == .stop {
              try sink.receive(.batchEnd)
              try? await writer.close(code: 1000, reason: nil)
              return outcome
            }
          case .ping:
            try await writer.send(.pong, frame.unmaskedData)
          case .pong:
            pings.pong()
          case .connectionClose:
            try sink.receive(.batchEnd)
            return try await closed(by: frame, writer: writer, outcome: outcome)
          default:
            continue
          }
        }
        try sink.receive(.batchEnd)
      }
    } catch let error as NIOWebSocketError {
      throw AttemptFailure(
        error == .invalidFrameLength ? tooLarge(error) : violation(WebSocketViolation(error).text, cause: error))
    } catch let error as NIOWebSocketFrameAggregator.Error {
      let violation = WebSocketViolation(error)
      throw AttemptFailure(violation == .tooLarge ? tooLarge(error) : self.violation(violation.text, cause: error))
    } catch let error as AttemptFailure {
      throw error
    } catch let error as APXError {
      throw error
    } catch {
      try Task.checkCancellation()
      if let failure = error as? any Error & CustomStringConvertible, !(error is CancellationError) {
        let mapped = NetworkErrorMapper.map(failure, url: "", timeout: nil)
        throw interrupted("the connection dropped (\(mapped.message))", mapped)
      }
      throw error
    }
    throw interrupted(
      "the connection dropped without a close frame",
      APXError(.network, "\(endpointName): the connection dropped without a close frame"))
  }

  /// One graphql-transport-ws message: answered, delivered, or the end of the subscription.
  private func step(
    _ graphQL: GraphQLTransportWS, frame: WebSocketFrame, writer: WebSocketFrameWriter, sink: any CallEventSink
  ) async throws -> WebSocketDelivery.Verdict {
    let step: GraphQLTransportWS.Step
    do {
      step = try graphQL.step(Array(frame.unmaskedData.readableBytesView))
    } catch {
      throw AttemptFailure(error)
    }
    switch step {
    case .reply(let text):
      try await writer.send(.text, ByteBuffer(string: text))
      return .carryOn
    case .result(let answer):
      state.deliveredMessages = true
      guard var delivery = state.graphQL else { return .carryOn }
      defer { state.graphQL = delivery }
      return try delivery.deliver(answer, to: sink)
    case .complete:
      return .stop
    case .ignore:
      return .carryOn
    }
  }

  /// The server closed: 1000 and 1001 end the watch normally, 1008 refuses the credentials (as
  /// do graphql-transport-ws's 4401 and 4403), any other code is the stream failing (exit 10).
  private func closed(by frame: WebSocketFrame, writer: WebSocketFrameWriter, outcome: CallOutcome) async throws
    -> CallOutcome
  {
    var data = frame.unmaskedData
    let code = data.readInteger(as: UInt16.self).map(Int.init)
    let reason = data.readString(length: data.readableBytes) ?? ""
    try? await writer.close(code: code ?? 1000, reason: nil)
    guard let code, code != 1000, code != 1001 else { return outcome }
    let said = reason.isEmpty ? "" : ": \(reason)"
    if code == 1008 || (graphQL != nil && (code == 4401 || code == 4403)) {
      var failure = AttemptFailure(
        APXError(
          .auth,
          "\(endpointName): the server closed the connection with code \(code) (\(code == 1008 ? "policy violation" : "unauthorized"))\(said)",
          hint: "the credentials were refused: check the API's auth settings (apx auth status)"),
        credentialsRejected: true)
      failure.outcome = .status(401)
      throw failure
    }
    throw AttemptFailure(
      APXError(
        .remoteFailure, "\(endpointName): the server closed the connection with code \(code)\(said)",
        hint: "the messages so far are on stdout; 1000 (normal) and 1001 (going away) end a stream successfully"))
  }

  /// The server broke RFC 6455: its fault, not apx's, and not worth a retry.
  private func violation(_ what: String, cause: (any Error)? = nil) -> APXError {
    APXError(
      .remoteFailure, "\(endpointName): the server broke the WebSocket protocol: \(what)",
      hint: "the messages so far are on stdout; this is the server's fault (RFC 6455)", cause: cause.map { "\($0)" })
  }

  private func tooLarge(_ error: any Error) -> APXError {
    APXError(
      .expectation,
      "\(endpointName) sent a message larger than \(WebSocketSecrets.size(options.maxMessageSize)), the most apx holds "
        + "for one message",
      hint: "raise the limit with --max-message-size BYTES", cause: "\(error)")
  }

  private func interrupted(_ reason: String, _ error: APXError) -> AttemptFailure {
    state.interruption = reason
    return AttemptFailure(error, outcome: .connectionFailure)
  }
}

/// When the last frame arrived, so that stdin's end can wait for the answers still coming.
final class MessageActivity: Sendable {
  private let last = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)

  /// A frame arrived now.
  func note() { last.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }

  /// Whether no frame has arrived for `seconds`.
  func quiet(for seconds: Double) -> Bool {
    DispatchTime.now().uptimeNanoseconds - last.load(ordering: .relaxed) >= UInt64(seconds * 1e9)
  }
}

/// Outstanding client pings: a ping still unanswered when the next is due ends the attempt.
final class PingState: Sendable {
  private let waiting = NIOLockedValueBox(false)

  /// Records a ping about to go out; false when the previous one was never answered.
  func ping() -> Bool {
    waiting.withLockedValue { waiting in
      if waiting { return false }
      waiting = true
      return true
    }
  }

  func pong() { waiting.withLockedValue { $0 = false } }
}
