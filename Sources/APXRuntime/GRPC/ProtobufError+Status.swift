import APXCore
import APXProtobuf

/// Where the runtime calls the protobuf codec, its failures get the exit status the README
/// documents: a request that does not fit the schema or names what it lacks is a usage
/// error, broken descriptors an invalid definition, bytes a peer sent that do not decode a
/// remote failure.
extension APXError {
  /// `error` as the user sees it, keeping it as the underlying error.
  init(_ error: ProtobufError) {
    self.init(Self.status(of: error.kind), error.message, hint: error.hint, underlying: error)
    // The cause is the codec's own underlying error (a descriptor SwiftProtobuf could not
    // parse), in words, not the codec error again.
    cause = error.underlyingText
  }

  /// The exit status of a codec failure of `kind`.
  static func status(of kind: ProtobufError.Kind) -> ExitStatus {
    switch kind {
    case .invalidJSON, .unknownName: .usage
    case .malformedMessage: .remoteFailure
    case .invalidSchema: .invalidDefinition
    case .internalInconsistency: .internalFailure
    }
  }
}

/// Runs `body`, which calls APXProtobuf, with its `ProtobufError` mapped to an `APXError`.
func protobuf<T>(_ body: () throws(ProtobufError) -> T) throws(APXError) -> T {
  do {
    return try body()
  } catch {
    throw APXError(error)
  }
}
