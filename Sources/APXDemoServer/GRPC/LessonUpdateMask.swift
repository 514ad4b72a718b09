import GRPCCore
import SwiftProtobuf

/// Applies UpdateLesson's `update_mask` to a stored lesson.
enum LessonUpdateMask {
  /// Paths a client may update; `id`, `created_at` belong to the server.
  static let updatablePaths: [String] = [
    "title", "teacher", "labels", "metadata", "state", "view_count", "summary",
    "duration_minutes", "room", "meeting_url",
  ]

  /// Returns `stored` with the fields named by `mask` copied from `patch` (all updatable fields
  /// when the mask is empty). Throws `INVALID_ARGUMENT` for a path it does not know.
  static func apply(
    _ patch: Classnotes_V1_Lesson,
    to stored: Classnotes_V1_Lesson,
    mask: Google_Protobuf_FieldMask
  ) throws(RPCError) -> Classnotes_V1_Lesson {
    let paths = mask.paths.isEmpty ? Self.updatablePaths : mask.paths
    var lesson = stored
    for path in paths {
      switch path {
      case "title": lesson.title = patch.title
      case "teacher":
        if patch.hasTeacher { lesson.teacher = patch.teacher } else { lesson.clearTeacher() }
      case "teacher.id": lesson.teacher.id = patch.teacher.id
      case "teacher.display_name": lesson.teacher.displayName = patch.teacher.displayName
      case "teacher.email": lesson.teacher.email = patch.teacher.email
      case "labels": lesson.labels = patch.labels
      case "metadata": lesson.metadata = patch.metadata
      case "state": lesson.state = patch.state
      case "view_count": lesson.viewCount = patch.viewCount
      case "summary":
        if patch.hasSummary { lesson.summary = patch.summary } else { lesson.clearSummary() }
      case "duration_minutes":
        if patch.hasDurationMinutes {
          lesson.durationMinutes = patch.durationMinutes
        } else {
          lesson.clearDurationMinutes()
        }
      case "room", "meeting_url", "location":
        // Setting one member of the oneof clears the other, as the wire format does.
        if path == "location" || patch.location != nil || Self.clears(path, in: lesson) {
          lesson.location = Self.location(for: path, patch: patch, current: lesson.location)
        }
      case "id", "created_at":
        throw RPCError(
          code: .invalidArgument,
          message: "update_mask path '\(path)' is set by the server and cannot be updated."
        )
      default:
        throw RPCError(
          code: .invalidArgument,
          message:
            "update_mask path '\(path)' is unknown; use one of: "
            + Self.updatablePaths.joined(separator: ", ") + "."
        )
      }
    }
    return lesson
  }

  /// Whether an update of `path` with no value in the patch clears the stored oneof member.
  private static func clears(_ path: String, in lesson: Classnotes_V1_Lesson) -> Bool {
    switch (path, lesson.location) {
    case ("room", .room?), ("meeting_url", .meetingURL?): return true
    default: return false
    }
  }

  private static func location(
    for path: String,
    patch: Classnotes_V1_Lesson,
    current: Classnotes_V1_Lesson.OneOf_Location?
  ) -> Classnotes_V1_Lesson.OneOf_Location? {
    switch (path, patch.location) {
    case ("location", let value): return value
    case ("room", .room(let room)?): return .room(room)
    case ("meeting_url", .meetingURL(let url)?): return .meetingURL(url)
    // The patch sets the other member: leave the current value to that member's own path.
    case (_, .some): return current
    // The patch leaves the named member unset: clear it.
    case (_, nil): return nil
    }
  }
}
