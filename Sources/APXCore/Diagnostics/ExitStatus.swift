/// What kind of failure ended a command, one case per documented, stable process exit
/// code. The number itself is chosen only at the command line's edge (`code`, in the `apx`
/// target); the README's exit-code table lists the same values and tests check each one.
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
  /// 6 — network failure: connection refused, DNS, TLS, connection dropped, a proxy's refusal.
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
  /// 12 — a GraphQL answer carried errors: no data, `data: null`, or (without `--allow-partial`)
  /// data with errors. Each error's message, path and extensions are on stderr.
  case graphqlError
  /// 64 + code — a gRPC call ended with a non-OK status.
  case grpc(code: Int)
  /// 130 — interrupted (Ctrl-C); a recipe run can be resumed with `apx run --resume`.
  case interrupted
}
