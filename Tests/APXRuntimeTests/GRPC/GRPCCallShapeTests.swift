import APXCore
import APXRuntime
import Testing

@Suite("gRPC calls through the Executor: every call shape over real HTTP/2", .timeLimit(.minutes(5)))
struct GRPCCallShapeTests {
  @Test func unaryOverAProtoset() async throws {
    try await GRPCHarness.run { h in
      let log = try await h.call(try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))])
      #expect(log.messages.count == 1)
      #expect(log.messages.first?["id"] == .string("les_0001"))
      // int64 prints as a string, nested messages and maps decode by JSON name.
      #expect(log.messages.first?["viewCount"] == .string("1280"))
      #expect(log.messages.first?["teacher"]?["displayName"] == .string("Ada Lovelace"))
      #expect(log.attempts == [1])
      #expect(log.all.contains { if case .responseHead(200, _, _) = $0 { true } else { false } })
      #expect(log.all.contains { if case .trailers = $0 { true } else { false } })
    }
  }

  @Test func unaryOverReflectionRoutesATopLevelNameIntoTheOnlyMessageField() async throws {
    try await GRPCHarness.run { h in
      let log = try await h.call(try h.endpoint("lessons.create"), values: [("title", .string("Hello"))])
      #expect(log.messages.first?["title"] == .string("Hello"))
      #expect(log.messages.first?["state"] == .string("LESSON_STATE_DRAFT"))
    }
  }

  @Test func dottedNamesAndDataCombine() async throws {
    try await GRPCHarness.run { h in
      let log = try await h.call(
        try h.endpoint("lessons.create"), values: [("lesson.labels", .array([.string("math")]))],
        data: #"{"lesson": {"title": "Algebra", "durationMinutes": 45}}"#)
      #expect(log.messages.first?["title"] == .string("Algebra"))
      #expect(log.messages.first?["labels"] == .array([.string("math")]))
      #expect(log.messages.first?["durationMinutes"] == .number("45"))
    }
  }

  @Test func emitDefaultsPrintsZeroFields() async throws {
    try await GRPCHarness.run { h in
      let plain = try await h.call(try h.endpoint("lessons.create"), values: [("title", .string("A"))])
      #expect(plain.messages.first?["viewCount"] == nil)
      let full = try await h.call(
        try h.endpoint("lessons.create"), values: [("title", .string("B"))],
        settings: GRPCSettings(emitDefaults: true))
      #expect(full.messages.first?["viewCount"] == .string("0"))
      #expect(full.messages.first?["labels"] == .array([]))
    }
  }

  @Test func serverStreamingDeliversEachMessage() async throws {
    try await GRPCHarness.run { h in
      let log = try await h.call(
        try h.endpoint("lessons.status"), values: [("lesson_id", .string("les_0001")), ("delay_ms", .string("1"))])
      #expect(log.messages.map { $0["stage"] } == ["QUEUED", "OCR", "ANALYSIS", "COMPLETED"].map { .string($0) })
      #expect(log.messages.map { $0["sequence"] } == ["1", "2", "3", "4"].map { .string($0) })
    }
  }

  /// classnotes.json declares `"progress": {"fraction": ".progress"}` on lessons.status: each message
  /// brings a progress event, as an SSE event does.
  @Test func serverStreamingReportsTheDeclaredProgressOfEachMessage() async throws {
    try await GRPCHarness.run { h in
      let log = try await h.call(
        try h.endpoint("lessons.status"), values: [("lesson_id", .string("les_0001")), ("count", .string("5"))])
      let fractions = log.all.compactMap { if case .progress(let f, _, _) = $0 { f } else { nil } }
      #expect(fractions == [0, 0.25, 0.5, 0.75, 1])
      // Each progress event follows its message.
      let kinds = log.all.compactMap { event -> String? in
        switch event {
        case .message: "message"
        case .progress: "progress"
        default: nil
        }
      }
      #expect(kinds == Array(repeating: ["message", "progress"], count: 5).flatMap { $0 })
      // done/total paths are read too; a path that holds no number gives no event.
      let counted = try await h.call(
        try h.endpoint("lessons.status") {
          $0.setGRPC(\.progress, ProgressFields(done: ".sequence", total: ".nothing"))
        },
        values: [("lesson_id", .string("les_0001"))])
      let done = counted.all.compactMap { if case .progress(_, let d, _) = $0 { d } else { nil } }
      #expect(done == [1, 2, 3, 4])
      let none = try await h.call(
        try h.endpoint("lessons.status") { $0.setGRPC(\.progress, ProgressFields(fraction: ".message")) },
        values: [("lesson_id", .string("les_0001"))])
      #expect(!none.all.contains { if case .progress = $0 { true } else { false } })
    }
  }

  @Test func aBadProgressPathIsADefinitionError() async throws {
    try await GRPCHarness.run { h in
      let error = await h.failure(
        try h.endpoint("lessons.status") { $0.setGRPC(\.progress, ProgressFields(fraction: "progress[")) },
        values: [("lesson_id", .string("les_0001"))])
      #expect(error?.status == .invalidDefinition, "\(String(describing: error))")
      #expect(error?.message.contains("progress path") == true, "\(String(describing: error))")
    }
  }

  @Test func serverStreamingStopsAfterMaxEvents() async throws {
    try await GRPCHarness.run { h in
      let log = try await h.call(
        try h.endpoint("lessons.status"), values: [("lesson_id", .string("les_0002")), ("count", .string("1000"))],
        maxEvents: 3)
      #expect(log.messages.count == 3)
    }
  }

  @Test func clientStreamingSendsEveryArrayElement() async throws {
    try await GRPCHarness.run { h in
      // "hello " and "world" in base64: sha256("hello world").
      let log = try await h.call(
        try h.endpoint("documents.upload"),
        data: #"[{"filename": "notes.txt", "data": "aGVsbG8g"}, {"data": "d29ybGQ="}]"#)
      #expect(log.messages.count == 1)
      #expect(log.messages.first?["totalSize"] == .string("11"))
      #expect(log.messages.first?["chunkCount"] == .number("2"))
      #expect(
        log.messages.first?["sha256"] == .string("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"))
    }
  }

  @Test func clientStreamingAcceptsNDJSONAndSetsNameValueFieldsOnEachMessage() async throws {
    try await GRPCHarness.run { h in
      let log = try await h.call(
        try h.endpoint("documents.upload"), values: [("filename", .string("n.txt"))],
        data: "{\"data\": \"aGVsbG8g\"}\n{\"data\": \"d29ybGQ=\"}\n")
      #expect(log.messages.first?["filename"] == .string("n.txt"))
      #expect(log.messages.first?["chunkCount"] == .number("2"))
    }
  }

  @Test func bidirectionalStreamingAnswersEveryChange() async throws {
    try await GRPCHarness.run { h in
      let log = try await h.call(
        try h.endpoint("documents.sync"),
        data: """
          [{"document_id": "d1", "operation": "UPSERT", "content": "a"},
           {"document_id": "d1", "operation": "UPSERT", "content": "b", "base_version": 1},
           {"document_id": "d1", "operation": "UPSERT", "base_version": 0}]
          """)
      #expect(log.messages.map { $0["version"] } == [.string("1"), .string("2"), .string("2")])
      #expect(log.messages.map { $0["accepted"] } == [.bool(true), .bool(true), nil])
    }
  }

  @Test func aCancelledStreamedRequestReportsWhichMessageWasBad() async throws {
    try await GRPCHarness.run { h in
      let error = await h.failure(
        try h.endpoint("documents.upload"), data: #"[{"data": "aGVsbG8g"}, {"filename": 3}]"#)
      #expect(error?.status == .usage)
      #expect(error?.message.contains("request message #2") == true)
    }
  }
}
