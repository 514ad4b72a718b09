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

  /// Every status the root help lists, in order; gRPC's statuses as one row (`64+N`).
  static let documented: [ExitStatus] = [
    .success, .internalFailure, .usage, .invalidDefinition, .httpClientError, .httpServerError, .network, .timeout,
    .auth, .expectation, .remoteFailure, .jsonrpcError, .graphqlError, .grpc(code: 0), .interrupted,
  ]

  /// The code as the help lists it: `64+N` for the gRPC statuses.
  var codeText: String {
    if case .grpc = self { return "64+N" }
    return "\(code)"
  }

  /// What the code means, in the root help's words (the README's table says more).
  var meaning: String {
    switch self {
    case .success: "success"
    case .internalFailure: "internal error, or stdout could not be written"
    case .usage: "usage: unknown flag, bad parameter or header, unknown API or endpoint"
    case .invalidDefinition: "invalid registry, recipe or config file"
    case .httpClientError: "the server answered HTTP 4xx"
    case .httpServerError: "the server answered HTTP 5xx"
    case .network: "network: connection refused, DNS, TLS, connection dropped, a proxy's refusal"
    case .timeout: "timeout"
    case .auth: "auth: credentials missing, rejected or unusable (a proxy's 407 too)"
    case .expectation:
      "expectation failed (status, recipe check, --test, unusable response, --select that does not fit it)"
    case .remoteFailure: "the remote operation failed"
    case .jsonrpcError: "JSON-RPC error object"
    case .graphqlError: "GraphQL errors in the answer (data printed; --allow-partial accepts partial data)"
    case .grpc: "gRPC status N (78 UNAVAILABLE, 80 UNAUTHENTICATED)"
    case .interrupted: "interrupted"
    }
  }

  /// The root help's exit-code table: one row per documented status, wrapped at 80 columns.
  static var helpTable: String {
    documented.map { status in
      let lead = "  " + status.codeText + String(repeating: " ", count: max(1, 6 - status.codeText.count))
      var lines: [String] = []
      var line = lead
      for word in status.meaning.split(separator: " ") {
        if line.count + 1 + word.count > 80, line.count > lead.count {
          lines.append(line)
          line = String(repeating: " ", count: lead.count) + word
        } else {
          line += (line.count > lead.count ? " " : "") + word
        }
      }
      lines.append(line)
      return lines.joined(separator: "\n")
    }.joined(separator: "\n")
  }
}
