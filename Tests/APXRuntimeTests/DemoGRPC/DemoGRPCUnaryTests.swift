import APXDemoServer
import GRPCCore
import SwiftProtobuf
import Testing

@Suite("Demo gRPC server: unary lesson calls")
struct DemoGRPCUnaryTests {
  private static func draft(title: String = "Linear algebra") -> Classnotes_V1_CreateLessonRequest {
    .with {
      $0.lesson = .with {
        $0.title = title
        $0.teacher = .with {
          $0.id = "tch_emmy"
          $0.displayName = "Emmy Noether"
        }
        $0.labels = ["math", "algebra"]
        $0.metadata = ["term": "2027-spring"]
        $0.summary = "Vectors, matrices, and what they do."
        $0.meetingURL = "https://meet.example/la"
      }
    }
  }

  @Test func createThenGetReturnsTheStoredLesson() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let created = try await api.createLesson(Self.draft())
      #expect(created.id == "les_0004")  // three sample lessons come first
      #expect(created.title == "Linear algebra")
      #expect(created.state == .draft)
      #expect(created.hasCreatedAt)
      #expect(created.hasSummary)
      #expect(!created.hasDurationMinutes)
      #expect(created.location == .meetingURL("https://meet.example/la"))

      let fetched = try await api.getLesson(.with { $0.id = created.id })
      #expect(fetched == created)
    }
  }

  @Test func emptyTitleIsInvalidArgument() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let error = await DemoGRPCHarness.rpcError {
        _ = try await api.createLesson(Self.draft(title: "   "))
      }
      #expect(error?.code == .invalidArgument)
      #expect(error?.message.contains("title") == true)
    }
  }

  @Test func unknownIdsAreNotFound() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let getError = await DemoGRPCHarness.rpcError {
        _ = try await api.getLesson(.with { $0.id = "les_9999" })
      }
      #expect(getError?.code == .notFound)
      #expect(getError?.message.contains("les_9999") == true)

      let deleteError = await DemoGRPCHarness.rpcError {
        _ = try await api.deleteLesson(.with { $0.id = "les_9999" })
      }
      #expect(deleteError?.code == .notFound)

      let updateError = await DemoGRPCHarness.rpcError {
        _ = try await api.updateLesson(.with { $0.lesson = .with { $0.id = "les_9999" } })
      }
      #expect(updateError?.code == .notFound)
    }
  }

  @Test func listPagesThroughEveryLessonOnce() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      for index in 1...4 {
        _ = try await api.createLesson(Self.draft(title: "Lesson \(index)"))
      }
      var ids: [String] = []
      var token = ""
      var pages = 0
      repeat {
        let page = try await api.listLessons(
          .with {
            $0.pageSize = 3
            $0.pageToken = token
          }
        )
        #expect(page.totalSize == 7)
        #expect(page.lessons.count <= 3)
        ids += page.lessons.map(\.id)
        token = page.nextPageToken
        pages += 1
      } while !token.isEmpty && pages < 10
      #expect(pages == 3)
      #expect(ids == (1...7).map { "les_000\($0)" })

      let math = try await api.listLessons(.with { $0.label = "algebra" })
      #expect(math.lessons.count == 4)

      let badToken = await DemoGRPCHarness.rpcError {
        _ = try await api.listLessons(.with { $0.pageToken = "not-a-token" })
      }
      #expect(badToken?.code == .invalidArgument)
    }
  }

  @Test func updateChangesOnlyTheMaskedFields() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let created = try await api.createLesson(Self.draft())
      let updated = try await api.updateLesson(
        .with {
          $0.lesson = .with {
            $0.id = created.id
            $0.title = "Linear algebra II"
            $0.labels = ["ignored"]
            $0.room = .with {
              $0.building = "East"
              $0.number = 7
            }
          }
          $0.updateMask = .with { $0.paths = ["title", "room"] }
        }
      )
      #expect(updated.title == "Linear algebra II")
      #expect(updated.labels == ["math", "algebra"])
      #expect(
        updated.location
          == .room(
            .with {
              $0.building = "East"; $0.number = 7
            }))
      #expect(updated.createdAt == created.createdAt)

      let unknownPath = await DemoGRPCHarness.rpcError {
        _ = try await api.updateLesson(
          .with {
            $0.lesson = .with { $0.id = created.id }
            $0.updateMask = .with { $0.paths = ["colour"] }
          }
        )
      }
      #expect(unknownPath?.code == .invalidArgument)

      let emptiedTitle = await DemoGRPCHarness.rpcError {
        _ = try await api.updateLesson(
          .with {
            $0.lesson = .with { $0.id = created.id }
            $0.updateMask = .with { $0.paths = ["title"] }
          }
        )
      }
      #expect(emptiedTitle?.code == .invalidArgument)
    }
  }

  @Test func emptyMaskReplacesEveryUpdatableField() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let stored = try await api.getLesson(.with { $0.id = "les_0001" })
      #expect(stored.hasSummary)
      let updated = try await api.updateLesson(
        .with {
          $0.lesson = .with {
            $0.id = "les_0001"
            $0.title = "Replaced"
            $0.meetingURL = "https://meet.example/replaced"
          }
        }
      )
      #expect(updated.title == "Replaced")
      #expect(updated.labels.isEmpty)
      #expect(!updated.hasTeacher)
      #expect(!updated.hasSummary)
      #expect(updated.location == .meetingURL("https://meet.example/replaced"))
      #expect(updated.createdAt == stored.createdAt)
      #expect(updated.id == "les_0001")
    }
  }

  @Test func deleteAndBatchDelete() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let deleted = try await api.deleteLesson(.with { $0.id = "les_0001" })
      #expect(deleted.id == "les_0001")
      let gone = await DemoGRPCHarness.rpcError {
        _ = try await api.getLesson(.with { $0.id = "les_0001" })
      }
      #expect(gone?.code == .notFound)

      let batch = try await api.batchDeleteLessons(
        .with { $0.ids = ["les_0002", "les_0001", "les_0003"] }
      )
      #expect(batch.deletedIds == ["les_0002", "les_0003"])
      #expect(batch.notFoundIds == ["les_0001"])
      let remaining = try await api.listLessons(.init())
      #expect(remaining.lessons.isEmpty)
      #expect(remaining.nextPageToken.isEmpty)
    }
  }

  @Test func sampleLessonKeepsALargeInt64() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let lesson = try await api.getLesson(.with { $0.id = "les_0003" })
      #expect(lesson.viewCount == 9_007_199_254_740_993)
    }
  }
}
