import GRPCCore
import SwiftProtobuf

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The demo server's lessons, in memory, in creation order. One store per server.
actor LessonStore {
  /// Page size used when a request asks for 0.
  static let defaultPageSize = 50
  /// Largest page size honoured; larger requests are reduced to it.
  static let maximumPageSize = 1000

  private struct Entry {
    var sequence: UInt64
    var lesson: Classnotes_V1_Lesson
  }

  private var entries: [String: Entry] = [:]
  private var nextSequence: UInt64 = 1

  /// Creates a store holding `seed` lessons (given ids are kept).
  init(seed: [Classnotes_V1_Lesson] = []) {
    for lesson in seed {
      self.entries[lesson.id] = Entry(sequence: self.nextSequence, lesson: lesson)
      self.nextSequence += 1
    }
  }

  /// Validates `draft`, gives it an id, a creation time and a state, and stores it.
  func create(_ draft: Classnotes_V1_Lesson, now: Date) throws(RPCError) -> Classnotes_V1_Lesson {
    try LessonValidation.validate(draft)
    var lesson = draft
    let sequence = self.nextSequence
    self.nextSequence += 1
    lesson.id = Self.identifier(for: sequence)
    lesson.createdAt = Google_Protobuf_Timestamp(date: now)
    lesson.viewCount = 0
    if lesson.state == .unspecified {
      lesson.state = .draft
    }
    self.entries[lesson.id] = Entry(sequence: sequence, lesson: lesson)
    return lesson
  }

  /// The lesson with `id`; `NOT_FOUND` when there is none.
  func lesson(id: String) throws(RPCError) -> Classnotes_V1_Lesson {
    try Self.requireID(id)
    guard let entry = self.entries[id] else {
      throw Self.notFound(id)
    }
    return entry.lesson
  }

  /// One page of lessons, optionally only those carrying `label`.
  func list(
    pageSize: Int32,
    pageToken: String,
    label: String?
  ) throws(RPCError) -> Classnotes_V1_ListLessonsResponse {
    guard pageSize >= 0 else {
      throw RPCError(
        code: .invalidArgument,
        message: "page_size must not be negative (got \(pageSize))."
      )
    }
    let size =
      pageSize == 0 ? Self.defaultPageSize : min(Int(pageSize), Self.maximumPageSize)
    var after: UInt64 = 0
    if !pageToken.isEmpty {
      guard let token = LessonPageToken(encoded: pageToken) else {
        throw RPCError(
          code: .invalidArgument,
          message:
            "page_token '\(pageToken)' is not valid: pass the next_page_token of the previous "
            + "page, or nothing for the first page."
        )
      }
      after = token.lastSequence
    }
    let matching = self.entries.values
      .filter { label == nil || $0.lesson.labels.contains(label ?? "") }
      .sorted { $0.sequence < $1.sequence }
    let page = matching.filter { $0.sequence > after }.prefix(size)

    var response = Classnotes_V1_ListLessonsResponse()
    response.lessons = page.map(\.lesson)
    response.totalSize = Int32(clamping: matching.count)
    if let last = page.last, matching.last?.sequence != last.sequence {
      response.nextPageToken = LessonPageToken(lastSequence: last.sequence).encoded
    }
    return response
  }

  /// Applies `patch` to the stored lesson with the same id, as `mask` says.
  func update(
    _ patch: Classnotes_V1_Lesson,
    mask: Google_Protobuf_FieldMask
  ) throws(RPCError) -> Classnotes_V1_Lesson {
    try Self.requireID(patch.id, field: "lesson.id")
    guard var entry = self.entries[patch.id] else {
      throw Self.notFound(patch.id)
    }
    let updated = try LessonUpdateMask.apply(patch, to: entry.lesson, mask: mask)
    try LessonValidation.validate(updated)
    entry.lesson = updated
    self.entries[patch.id] = entry
    return updated
  }

  /// Deletes the lesson with `id`; `NOT_FOUND` when there is none.
  func delete(id: String) throws(RPCError) {
    try Self.requireID(id)
    guard self.entries.removeValue(forKey: id) != nil else {
      throw Self.notFound(id)
    }
  }

  /// Deletes every lesson in `ids` that exists; reports which did and which did not.
  func batchDelete(ids: [String]) throws(RPCError) -> Classnotes_V1_BatchDeleteLessonsResponse {
    guard !ids.isEmpty else {
      throw RPCError(code: .invalidArgument, message: "ids must name at least one lesson.")
    }
    var response = Classnotes_V1_BatchDeleteLessonsResponse()
    for id in ids {
      if self.entries.removeValue(forKey: id) != nil {
        response.deletedIds.append(id)
      } else {
        response.notFoundIds.append(id)
      }
    }
    return response
  }

  /// Ids look like `les_0042`: short to type, sorted like their creation order.
  static func identifier(for sequence: UInt64) -> String {
    let digits = String(sequence)
    return "les_" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private static func requireID(_ id: String, field: String = "id") throws(RPCError) {
    if id.isEmpty {
      throw RPCError(code: .invalidArgument, message: "\(field) must not be empty.")
    }
  }

  private static func notFound(_ id: String) -> RPCError {
    RPCError(
      code: .notFound,
      message: "Lesson '\(id)' not found: list lessons with ListLessons to see existing ids."
    )
  }
}
