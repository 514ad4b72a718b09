import NIOWebSocket

/// What a server's frames did wrong, from the errors of NIO's frame decoder and aggregator.
enum WebSocketViolation: Equatable {
  /// A message (one frame, or its fragments together) over `--max-message-size`.
  case tooLarge
  /// A ping, pong or close in fragments.
  case fragmentedControlFrame
  /// A control frame over 125 bytes.
  case longControlFrame
  /// A continuation frame with no message begun.
  case continuationWithoutMessage
  /// A new message begun before the last one's final fragment.
  case interleavedFragments
  /// Anything else the aggregator refuses (a fragment too small for its settings).
  case other

  init(_ error: NIOWebSocketError) {
    switch error {
    case .invalidFrameLength: self = .tooLarge
    case .fragmentedControlFrame: self = .fragmentedControlFrame
    case .multiByteControlFrameLength: self = .longControlFrame
    }
  }

  init(_ error: NIOWebSocketFrameAggregator.Error) {
    switch error {
    case .accumulatedFrameSizeIsTooLarge, .tooManyFragments: self = .tooLarge
    case .didReceiveFragmentBeforeReceivingTextOrBinaryFrame: self = .continuationWithoutMessage
    case .receivedNewFrameWithoutFinishingPrevious: self = .interleavedFragments
    default: self = .other
    }
  }

  /// The violation in words, for the error.
  var text: String {
    switch self {
    case .tooLarge: "a message over the size limit"
    case .fragmentedControlFrame: "it sent a control frame (ping, pong or close) in fragments"
    case .longControlFrame: "it sent a control frame (ping, pong or close) over 125 bytes"
    case .continuationWithoutMessage: "it sent a continuation frame with no message begun"
    case .interleavedFragments: "it began a new message before the last one's final fragment"
    case .other: "its message fragments broke the framing rules"
    }
  }
}
