import APXCore

extension ExitStatus {
  /// The numeric process exit code, as the README's exit-code table lists it. Only the
  /// `apx` target exits, so the number is chosen here, at the command line's edge.
  ///
  /// gRPC statuses are offset by 64 (as grpcurl does) so they never collide with apx's own
  /// codes: exit 78 is gRPC UNAVAILABLE (14).
  var code: Int32 {
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
    case .graphqlError: 12
    case .grpc(let code): Int32(64 + max(0, min(code, 63)))
    case .interrupted: 130
    }
  }
}
