import APXCore
import APXProtobuf
import GRPCCore

/// Turns a failed gRPC call (an `RPCError`) into apx's error: the status
/// name and message, the decoded `grpc-status-details-bin`, a hint for the
/// common codes (and for TLS handshake failures, which arrive as UNAVAILABLE),
/// and the exit status 64 + code.
struct GRPCFailure {
  let target: GRPCTarget
  /// `/package.Service/Method`.
  let path: String
  let apiName: String
  let pool: DescriptorPool?
  let mask: SecretMask
  let timeout: Double?
  /// The registry endpoint called (`lessons.get`), for hints; nil outside a registry call.
  var endpoint: String? = nil

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
    var hintText = hint(code: code, message: rpc.message)
    if let tls = GRPCTLSProblem(rpc) {
      // grpc-swift only says the connection closed early; the TLS error says why.
      message = tls.summary(target)
      hintText = tls.hint(target)
    }
    return APXError(
      .grpc(code: code), mask.mask("\(path) failed with \(name): \(message)"),
      hint: hintText,
      cause: causes.isEmpty ? nil : mask.mask(causes.joined(separator: "\n  ")))
  }

  private func hint(code: Int, message: String) -> String? {
    switch RPCError.Code(Status.Code(rawValue: code) ?? .unknown) {
    case .unavailable:
      let other = target.useTLS ? "grpc://\(target.host):\(target.port)" : "grpcs://\(target.host):\(target.port)"
      return "is the server running at \(target)? If it is, it may speak "
        + (target.useTLS ? "plaintext" : "TLS") + ": try \(other)"
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
      return endpoint.map { "check the request fields: `apx describe \(apiName).\($0)` shows the request template" }
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
