import APXCore

/// Connection flags that some kinds refuse (exit 2) instead of accepting and ignoring them; the
/// capability table (`EndpointKind.capabilities`) says which kinds take each.
enum ProtocolFlagCheck {
  /// The usage error for the flags `global` gives to a call of `kind`, or nil when it can use them all.
  static func problem(_ global: GlobalOptions, kind: EndpointKind) -> APXError? {
    let given: [(Bool, CallFlag)] = [
      (global.http1Only, .http1Only), (global.maxMessageSize != nil, .maxMessageSize),
      (global.authority != nil, .authority), (global.emitDefaults, .emitDefaults),
    ]
    guard let flag = given.first(where: { $0.0 && !kind.takes($0.1) })?.1 else { return nil }
    let hint = flag == .http1Only ? "gRPC runs over HTTP/2 only: drop --http1.1" : "drop \(flag.rawValue)"
    return APXError(.usage, kind.refused(flag), hint: hint)
  }
}
