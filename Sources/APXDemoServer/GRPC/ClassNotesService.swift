import Crypto
import GRPCCore
import SwiftProtobuf

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The ClassNotes API: lessons in memory, a simulated processing pipeline, document uploads
/// and document sync. Metadata concerns (auth, fault injection) live in interceptors.
struct ClassNotesService: Classnotes_V1_ClassNotesAPI.SimpleServiceProtocol {
  /// Longest pause accepted between two streamed status messages.
  static let maximumDelayMilliseconds: UInt32 = 60_000
  /// Most status messages one StreamProcessingStatus call may ask for.
  static let maximumStatusCount: UInt32 = 10_000_000
  /// Largest document UploadDocumentChunks accepts; beyond it, RESOURCE_EXHAUSTED.
  static let maximumUploadBytes: Int64 = 64 * 1024 * 1024
  /// Status messages written to the transport at once when no delay is asked for.
  static let statusBatchSize = 512

  private let lessons: LessonStore
  private let documents: DocumentVersions

  /// Creates the service over its own stores.
  init(lessons: LessonStore, documents: DocumentVersions) {
    self.lessons = lessons
    self.documents = documents
  }

  func createLesson(
    request: Classnotes_V1_CreateLessonRequest,
    context: ServerContext
  ) async throws -> Classnotes_V1_Lesson {
    guard request.hasLesson else {
      throw RPCError(code: .invalidArgument, message: "lesson is required.")
    }
    return try await self.lessons.create(request.lesson, now: Date())
  }

  func getLesson(
    request: Classnotes_V1_GetLessonRequest,
    context: ServerContext
  ) async throws -> Classnotes_V1_Lesson {
    try await self.lessons.lesson(id: request.id)
  }

  func listLessons(
    request: Classnotes_V1_ListLessonsRequest,
    context: ServerContext
  ) async throws -> Classnotes_V1_ListLessonsResponse {
    try await self.lessons.list(
      pageSize: request.pageSize,
      pageToken: request.pageToken,
      label: request.hasLabel ? request.label : nil
    )
  }

  func updateLesson(
    request: Classnotes_V1_UpdateLessonRequest,
    context: ServerContext
  ) async throws -> Classnotes_V1_Lesson {
    guard request.hasLesson else {
      throw RPCError(code: .invalidArgument, message: "lesson is required.")
    }
    return try await self.lessons.update(request.lesson, mask: request.updateMask)
  }

  func deleteLesson(
    request: Classnotes_V1_DeleteLessonRequest,
    context: ServerContext
  ) async throws -> Classnotes_V1_DeleteLessonResponse {
    try await self.lessons.delete(id: request.id)
    return .with { $0.id = request.id }
  }

  func batchDeleteLessons(
    request: Classnotes_V1_BatchDeleteLessonsRequest,
    context: ServerContext
  ) async throws -> Classnotes_V1_BatchDeleteLessonsResponse {
    try await self.lessons.batchDelete(ids: request.ids)
  }

  func streamProcessingStatus(
    request: Classnotes_V1_StreamProcessingStatusRequest,
    response: RPCWriter<Classnotes_V1_ProcessingStatus>,
    context: ServerContext
  ) async throws {
    guard request.delayMs <= Self.maximumDelayMilliseconds else {
      throw RPCError(
        code: .invalidArgument,
        message: "delay_ms must be at most \(Self.maximumDelayMilliseconds) (got \(request.delayMs))."
      )
    }
    guard request.count <= Self.maximumStatusCount else {
      throw RPCError(
        code: .invalidArgument,
        message: "count must be at most \(Self.maximumStatusCount) (got \(request.count))."
      )
    }
    // NOT_FOUND before the first message, as a real pipeline would.
    _ = try await self.lessons.lesson(id: request.lessonID)

    let plan = ProcessingPlan(lessonID: request.lessonID, count: request.count)
    guard request.delayMs > 0 else {
      // No pause asked for: hand messages to the transport in batches, which it flushes
      // together (one write per message made a 100,000-message stream several times slower).
      var start = 0
      while start < plan.messageCount {
        let end = min(start + Self.statusBatchSize, plan.messageCount)
        try await response.write(contentsOf: (start..<end).lazy.map { plan.status(at: $0) })
        start = end
      }
      return
    }
    for index in 0..<plan.messageCount {
      if index > 0 {
        try await Task.sleep(for: .milliseconds(Int(request.delayMs)))
      }
      try await response.write(plan.status(at: index))
    }
  }

  func uploadDocumentChunks(
    request: RPCAsyncSequence<Classnotes_V1_DocumentChunk, any Error>,
    context: ServerContext
  ) async throws -> Classnotes_V1_UploadSummary {
    var digest = SHA256()
    var summary = Classnotes_V1_UploadSummary()
    for try await chunk in request {
      if summary.chunkCount == 0 {
        summary.filename = chunk.filename
      }
      summary.chunkCount += 1
      summary.totalSize += Int64(chunk.data.count)
      guard summary.totalSize <= Self.maximumUploadBytes else {
        throw RPCError(
          code: .resourceExhausted,
          message:
            #"{"error":"upload_too_large","limit_bytes":\#(Self.maximumUploadBytes),"#
            + #""received_bytes":\#(summary.totalSize)}"#
        )
      }
      digest.update(data: chunk.data)
    }
    guard summary.chunkCount > 0 else {
      throw RPCError(
        code: .invalidArgument,
        message: "No chunks received: send at least one DocumentChunk before closing the stream."
      )
    }
    summary.sha256 = digest.finalize().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    return summary
  }

  func syncDocuments(
    request: RPCAsyncSequence<Classnotes_V1_DocumentChange, any Error>,
    response: RPCWriter<Classnotes_V1_DocumentAck>,
    context: ServerContext
  ) async throws {
    // One ack per change, written before the next change is read.
    for try await change in request {
      try await response.write(await self.documents.apply(change))
    }
  }
}
