/// The messages of one StreamProcessingStatus call: the four stages, or `count` messages whose
/// stage follows their progress (for benchmarks that want many small messages).
struct ProcessingPlan: Sendable {
  private static let stages: [(Classnotes_V1_ProcessingStatus.Stage, String)] = [
    (.queued, "Lesson queued for processing"),
    (.ocr, "Reading handwritten notes"),
    (.analysis, "Analysing content"),
    (.completed, "Processing complete"),
  ]

  /// The lesson being processed.
  let lessonID: String
  /// How many messages the stream carries.
  let messageCount: Int

  /// A plan of the four stages when `count` is 0, else of exactly `count` messages.
  init(lessonID: String, count: UInt32) {
    self.lessonID = lessonID
    self.messageCount = count == 0 ? Self.stages.count : Int(count)
  }

  /// The message at 0-based `index`.
  func status(at index: Int) -> Classnotes_V1_ProcessingStatus {
    var status = Classnotes_V1_ProcessingStatus()
    status.lessonID = self.lessonID
    status.sequence = UInt64(index + 1)
    let last = self.messageCount - 1
    status.progress = last == 0 ? 1 : Float(index) / Float(last)
    let stageIndex: Int
    if index == last {
      stageIndex = Self.stages.count - 1
    } else if index == 0 {
      stageIndex = 0
    } else {
      // Middle messages: OCR for the first half of the work, analysis for the second.
      stageIndex = status.progress < 0.5 ? 1 : 2
    }
    status.stage = Self.stages[stageIndex].0
    status.message = Self.stages[stageIndex].1
    return status
  }
}
