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
      case "room":
        // A oneof member: setting it replaces the other member; unsetting it clears only itself.
        if case .room(let room)? = patch.location {
          lesson.location = .room(room)
        } else if case .room? = lesson.location {
          lesson.location = nil
        }
      case "meeting_url":
        if case .meetingURL(let url)? = patch.location {
          lesson.location = .meetingURL(url)
        } else if case .meetingURL? = lesson.location {
          lesson.location = nil
        }
      case "location":
        lesson.location = patch.location
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
}
