/// The documented, stable process exit codes. The README's exit-code table
/// lists the same values; a test checks each one end to end.
///
/// gRPC statuses are offset by 64 (as grpcurl does) so they never collide
/// with apx's own codes: exit 78 is gRPC UNAVAILABLE (14).
public enum ExitStatus: Sendable, Hashable {
  /// 0 — everything worked.
  case success
  /// 1 — an unexpected internal failure (a bug: please report it).
  case internalFailure
  /// 2 — the command line is wrong: unknown flag, missing or malformed parameter.
  case usage
  /// 3 — a registry or recipe file is invalid (`apx validate` shows where).
  case invalidDefinition
  /// 4 — the server answered with an HTTP 4xx status.
  case httpClientError
  /// 5 — the server answered with an HTTP 5xx status.
  case httpServerError
  /// 6 — network failure: connection refused, DNS, TLS, connection dropped.
  case network
  /// 7 — the call (or the whole run) exceeded its timeout.
  case timeout
  /// 8 — authentication failed or credentials are missing.
  case auth
  /// 9 — an expectation failed: unexpected status, a recipe check, `--test` failures.
  case expectation
  /// 10 — the remote operation reported failure (an SSE `fail_on_event`, a failed job).
  case remoteFailure
  /// 11 — a JSON-RPC call was answered with an error object (its code, message and data are on stderr).
  case jsonrpcError
  /// 64 + code — a gRPC call ended with a non-OK status.
  case grpc(code: Int)
  /// 130 — interrupted (Ctrl-C); a recipe run can be resumed with `apx run --resume`.
  case interrupted

  /// The numeric process exit code.
  public var code: Int32 {
    switch self {
    case .success: 0
    case .internalFailure: 1
    case .usage: 2
    case .invalidDefinition: 3
    case .httpClientError: 4
    case .httpServerError: 5
    case .network: 6
    case .timeout: 7
    case .auth: 8
    case .expectation: 9
    case .remoteFailure: 10
    case .jsonrpcError: 11
    case .grpc(let code): Int32(64 + max(0, min(code, 63)))
    case .interrupted: 130
    }
  }
}
