import GRPCCore

/// The rules a lesson must follow, shared by CreateLesson and UpdateLesson.
enum LessonValidation {
  /// Longest accepted title, in characters.
  static let maximumTitleLength = 200

  /// Throws `INVALID_ARGUMENT` naming the first rule `lesson` breaks.
  static func validate(_ lesson: Classnotes_V1_Lesson) throws(RPCError) {
    let title = lesson.title.trimmingWhitespace()
    if title.isEmpty {
      throw RPCError(
        code: .invalidArgument,
        message: "lesson.title must not be empty: give the lesson a title."
      )
    }
    if lesson.title.count > Self.maximumTitleLength {
      throw RPCError(
        code: .invalidArgument,
        message:
          "lesson.title is \(lesson.title.count) characters long; the limit is "
          + "\(Self.maximumTitleLength)."
      )
    }
    if lesson.viewCount < 0 {
      throw RPCError(
        code: .invalidArgument,
        message: "lesson.view_count must not be negative (got \(lesson.viewCount))."
      )
    }
    if lesson.hasDurationMinutes, !(1...1440).contains(lesson.durationMinutes) {
      throw RPCError(
        code: .invalidArgument,
        message:
          "lesson.duration_minutes must be between 1 and 1440 (got \(lesson.durationMinutes))."
      )
    }
    if case .meetingURL(let url)? = lesson.location,
      !(url.hasPrefix("https://") || url.hasPrefix("http://"))
    {
      throw RPCError(
        code: .invalidArgument,
        message: "lesson.meeting_url must be an http(s) URL (got '\(url)')."
      )
    }
    if case .UNRECOGNIZED(let value) = lesson.state {
      throw RPCError(
        code: .invalidArgument,
        message: "lesson.state \(value) is not a known LessonState."
      )
    }
  }
}

extension String {
  /// The string without leading and trailing spaces, tabs and newlines.
  fileprivate func trimmingWhitespace() -> Substring {
    let isSpace: (Character) -> Bool = { $0.isWhitespace }
    guard let start = self.firstIndex(where: { !isSpace($0) }),
      let end = self.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return self[start...end]
  }
}
