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
    let grpcOnly: [(Bool, String)] = [
      (global.authority != nil, "--authority"), (global.maxMessageSize != nil, "--max-message-size"),
      (global.emitDefaults, "--emit-defaults"),
    ]
    if let flag = grpcOnly.first(where: \.0)?.1 {
      return APXError(
        .usage, "\(flag) applies to gRPC calls only, and this is a \(kind.rawValue) call", hint: "drop \(flag)")
    }
    return nil
  }
}
