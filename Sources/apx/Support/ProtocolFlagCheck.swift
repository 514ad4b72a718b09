import APXCore

/// Flags that one protocol cannot use, refused (exit 2) instead of accepted and ignored.
enum ProtocolFlagCheck {
  /// The usage error for the flags `global` gives to a call of `kind`, or nil when it can use them all.
  static func problem(_ global: GlobalOptions, kind: EndpointKind) -> APXError? {
    if kind == .grpc {
      if global.http1Only {
        return APXError(
          .usage, "--http1.1 cannot apply to a gRPC call: gRPC runs over HTTP/2 only", hint: "drop --http1.1")
      }
      return nil
    }
    // A GraphQL call takes it for a subscription over WebSocket; GraphQLCall refuses it otherwise.
    if global.maxMessageSize != nil, kind != .websocket, kind != .graphql {
      return APXError(
        .usage,
        "--max-message-size applies to gRPC, WebSocket and GraphQL subscription calls, and this is \(kind.withArticle) call",
        hint: "drop --max-message-size")
    }
    let grpcOnly: [(Bool, String)] = [
      (global.authority != nil, "--authority"), (global.emitDefaults, "--emit-defaults"),
    ]
    if let flag = grpcOnly.first(where: \.0)?.1 {
      return APXError(
        .usage, "\(flag) applies to gRPC calls only, and this is \(kind.withArticle) call", hint: "drop \(flag)")
    }
    return nil
  }
}
