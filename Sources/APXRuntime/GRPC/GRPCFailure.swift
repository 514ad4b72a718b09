import APXCore
import APXProtobuf
import GRPCCore
import NIOCore
import NIOPosix

/// Turns a failed gRPC call (an `RPCError`) into apx's error: the status
/// name and message, the decoded `grpc-status-details-bin`, a hint for the
/// common codes (and for TLS handshake failures, which arrive as UNAVAILABLE),
/// and the exit status 64 + code.
struct GRPCFailure: Sendable {
  let target: GRPCTarget
  /// `/package.Service/Method`.
  let path: String
  let apiName: String
  let pool: DescriptorPool?
  let mask: SecretMask
  let timeout: Double?
  /// What `apx describe` takes to show the method called, for hints: `API.ENDPOINT` for a
  /// registry call, the grpc:// URL for an ad-hoc one; nil outside a call.
  var described: String? = nil

  func error(_ rpc: RPCError) -> APXError {
    let code = rpc.code.rawValue
    let name = GRPCStatusName.name(of: code)
    var causes: [String] = []
    let details = rpc.metadata[binaryValues: "grpc-status-details-bin"].map { GRPCStatusDetails.json($0, pool: pool) }
    for d in details { causes.append("details: " + JSONPrinter(style: .compact).string(d)) }
    if let underlying = rpc.cause { causes.append(Self.describe(underlying)) }
    var message = rpc.message
    if code == RPCError.Code.resourceExhausted.rawValue, let json = try? JSONParser.parse(rpc.message),
      json.objectMembers != nil
    {
      // Quota errors often carry JSON (limits, reset time): show it whole, readable.
      message = "quota or rate limit exceeded"
      causes.insert("server said: " + JSONPrinter(style: .pretty).string(json), at: 0)
    }
    let connected = rpc.cause == nil && !Self.couldNotConnect(rpc)
    let refused = !connected && code == RPCError.Code.unavailable.rawValue && Self.connectionRefused(rpc)
    var reason: APXError.Reason = refused ? .connectionRefused : .unclassified
    var hintText = hint(code: code, message: rpc.message, refused: refused, connected: connected)
    if let tls = GRPCTLSProblem(rpc) {
      // grpc-swift only says the connection closed early; the TLS error says why.
      message = tls.summary(target)
      hintText = tls.hint(target)
      reason = .unclassified
    }
    var error = APXError(
      .grpc(code: code), mask.mask("\(path) failed with \(name): \(message)"), hint: hintText, underlying: rpc,
      reason: reason)
    // Only the masked details are shown (the status message may echo a secret), or none.
    error.cause = causes.isEmpty ? nil : mask.mask(causes.joined(separator: "\n  "))
    return error
  }

  /// How a failed attempt counts for retries: a connection that could not be
  /// made is a connection failure, an expired deadline a timeout, a TLS
  /// verdict on the peer (a certificate that fails verification) is never
  /// retried, and anything else is its status code.
  static func retryOutcome(of error: RPCError) -> RetryOutcome? {
    if GRPCTLSProblem(error) != nil { return nil }
    if couldNotConnect(error) { return .connectionFailure }
    if error.code == .deadlineExceeded { return .timeout }
    return .grpcStatus(Int(error.code.rawValue))
  }

  /// Whether the call failed because no connection could be made (refused,
  /// unreachable, unresolvable): grpc-swift reports it as UNAVAILABLE with
  /// the connection error somewhere in its causes.
  static func couldNotConnect(_ error: RPCError) -> Bool {
    guard error.code == .unavailable else { return false }
    let connectionLevel = ["transient failure", "resolve server name", "HTTP/2 connection preface"]
    if connectionLevel.contains(where: error.message.contains) { return true }
    return connectionRefused(error)
  }

  /// Whether the connection was refused (nothing listens on the port): a `connect` that failed
  /// with ECONNREFUSED somewhere in the error's causes.
  static func connectionRefused(_ error: any Error) -> Bool {
    causeChain(error).contains(where: NetworkErrorMapper.isRefusal)
  }

  /// `error` and the errors it was caused by (through `RPCError` and `RuntimeError` causes, and
  /// each address a `NIOConnectionError` tried), at most `limit`.
  static func causeChain(_ error: any Error, limit: Int = 16) -> [any Error] {
    var chain: [any Error] = []
    var pending: [any Error] = [error]
    while !pending.isEmpty, chain.count < limit {
      let e = pending.removeFirst()
      chain.append(e)
      if let rpc = e as? RPCError, let cause = rpc.cause {
        pending.append(cause)
      } else if let runtime = e as? RuntimeError, let cause = runtime.cause {
        pending.append(cause)
      } else if let connection = e as? NIOConnectionError {
        pending += connection.connectionErrors.map(\.error)
      }
    }
    return chain
  }

  private func hint(code: Int, message: String, refused: Bool, connected: Bool) -> String? {
    switch RPCError.Code(Status.Code(rawValue: code) ?? .unknown) {
    case .unavailable where connected:
      return "the server answered that it is unavailable: try again later, or allow more attempts with --retry N"
    case .unavailable where refused:
      return "nothing accepted the connection at \(target.host):\(target.port): is the server running? "
        + "Check the host and port, or \(NetworkErrorMapper.pointElsewhere)"
    case .unavailable:
      let other = target.useTLS ? "grpc://\(target.host):\(target.port)" : "grpcs://\(target.host):\(target.port)"
      return "is the server running at \(target)? If it is, it may speak "
        + (target.useTLS ? "plaintext" : "TLS") + ": try \(other)"
    case .unauthenticated where described.map(AdHocURL.isURL) == true:
      // A URL has no registry API to sign in to: its credentials come with the call.
      return "pass a token with --bearer TOKEN (or --token-stdin), or the header the server wants with -H"
    case .unauthenticated:
      return
        "sign in: `apx auth login \(apiName)` (see `apx auth status \(apiName)`), or pass a token with --token-stdin"
    case .permissionDenied:
      return "the credentials were accepted but may not call \(path); check the account's roles or scopes"
    case .deadlineExceeded:
      return timeout.map { "the call took longer than \(Self.seconds($0)): raise --timeout" }
        ?? "the server's deadline passed; try again with a larger --timeout"
    case .unimplemented:
      return "the server does not implement \(path): check the service and method names "
        + "(`apx list --grpc \(target)` lists what it offers)"
    case .resourceExhausted:
      if message.contains("payload size") || message.contains("message size") {
        return "a message is larger than allowed: raise --max-message-size BYTES"
      }
      return "a quota or rate limit was hit: wait and retry, or ask for a higher quota"
    case .invalidArgument, .outOfRange, .failedPrecondition:
      return described.map { "check the request fields: `apx describe \($0)` shows the request template" }
        ?? "check the request fields against the method's request message"
    case .internalError where message.contains("payload size") || message.contains("exceeds"):
      return "a message is larger than allowed: raise --max-message-size BYTES"
    default:
      return nil
    }
  }

  static func seconds(_ s: Double) -> String {
    "\(NumberText.plain(s)) s"
  }

  /// A readable chain of underlying errors (connection refused, TLS handshake...).
  static func describe(_ error: any Error) -> String {
    var parts: [String] = []
    var current: (any Error)? = error
    var depth = 0
    while let e = current, depth < 4 {
      if let rpc = e as? RPCError {
        parts.append(rpc.message)
        current = rpc.cause
      } else if let runtime = e as? RuntimeError {
        parts.append(runtime.message)
        current = runtime.cause
      } else {
        parts.append(String(describing: e))
        current = nil
      }
      depth += 1
    }
    return parts.filter { !$0.isEmpty }.joined(separator: ": ")
  }
}
