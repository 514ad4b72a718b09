import SwiftProtobuf

/// A failure of the protobuf layer, in its own terms: what failed, where, what to do, and
/// which kind of failure it is.
///
/// APXProtobuf picks no exit status: the runtime maps `kind` to one where it calls the
/// codec, so the same codec can serve callers that judge a failure differently.
public struct ProtobufError: Error, Sendable, CustomStringConvertible {
  /// What went wrong, in the codec's terms.
  public enum Kind: Sendable, Hashable {
    /// JSON that does not fit the message type (a request as the user wrote it).
    case invalidJSON
    /// Protobuf bytes that do not decode as the message type (what a peer sent).
    case malformedMessage
    /// Descriptors that do not form a valid schema (a protoset, a reflection answer).
    case invalidSchema
    /// A service, method or message type the schema does not define.
    case unknownName
    /// A state the codec's own checks should have ruled out: a bug in apx.
    case internalInconsistency
  }

  public var kind: Kind
  /// What failed, naming the message type and, when known, the field path and byte offset:
  /// `cannot encode apxtest.v1.Lesson from JSON: .labels[0]: expected a string value, got 3`.
  public var message: String
  /// Where in the message it failed, as a JSON path (`.lesson.labels[0]`); nil for the
  /// whole message or a schema problem.
  public var fieldPath: String?
  /// What to do about it.
  public var hint: String?
  /// The lower-level error, e.g. the wire reader's when a descriptor does not parse.
  public var underlying: (any Error & Sendable)?

  public init(
    _ kind: Kind, _ message: String, fieldPath: String? = nil, hint: String? = nil,
    underlying: (any Error & Sendable)? = nil
  ) {
    self.kind = kind
    self.message = message
    self.fieldPath = fieldPath
    self.hint = hint
    self.underlying = underlying
  }

  public var description: String { message }
}

extension ProtobufError {
  /// The lower-level error in words, for a `cause:` line: SwiftProtobuf's decoding errors are
  /// enum cases (`malformedProtobuf`), which say nothing to someone who did not write apx.
  public var underlyingText: String? {
    underlying.map(Self.words(for:))
  }

  /// `error` in words: SwiftProtobuf's binary decoding errors explained, others as they describe themselves.
  public static func words(for error: any Error) -> String {
    if let wire = error as? WireFailure {
      return wire.isWireFormat ? "the bytes are not protobuf (\(wire.message))" : wire.message
    }
    guard let decoding = error as? BinaryDecodingError else { return String(describing: error) }
    switch decoding {
    case .malformedProtobuf: return "the bytes are not protobuf (a field tag, wire type or length is invalid)"
    case .truncated: return "the bytes end in the middle of a field (truncated)"
    case .trailingGarbage: return "bytes are left over after the message ends"
    case .invalidUTF8: return "a string field is not valid UTF-8"
    case .missingRequiredFields: return "required fields are missing"
    case .messageDepthLimit: return "messages are nested deeper than the decoder allows"
    case .internalExtensionError: return "SwiftProtobuf failed on an extension field (its own internal error)"
    @unknown default: return String(describing: decoding)
    }
  }
}
