#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The opaque `page_token` of ListLessons: the creation sequence number of the last lesson of
/// the previous page, so deleting lessons between pages neither skips nor repeats any.
struct LessonPageToken: Sendable, Equatable {
  private static let prefix = "after:"

  /// Creation sequence number of the last lesson already returned.
  var lastSequence: UInt64

  /// Creates a token resuming after the lesson with this sequence number.
  init(lastSequence: UInt64) {
    self.lastSequence = lastSequence
  }

  /// Parses a token produced by `encoded`; nil when it was not made by this server.
  init?(encoded: String) {
    guard let data = Data(base64Encoded: encoded),
      let text = String(data: data, encoding: .utf8),
      text.hasPrefix(Self.prefix),
      let sequence = UInt64(text.dropFirst(Self.prefix.count))
    else { return nil }
    self.lastSequence = sequence
  }

  /// The token as sent to clients.
  var encoded: String {
    Data((Self.prefix + String(self.lastSequence)).utf8).base64EncodedString()
  }
}
