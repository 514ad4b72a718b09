import SwiftProtobuf

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Lessons every demo server starts with, so `ListLessons` shows data on a fresh server.
enum SampleLessons {
  /// The three seeded lessons, ids `les_0001` to `les_0003`.
  static func make(createdAt: Date) -> [Classnotes_V1_Lesson] {
    let timestamp = Google_Protobuf_Timestamp(date: createdAt)
    let ada = Classnotes_V1_Teacher.with {
      $0.id = "tch_ada"
      $0.displayName = "Ada Lovelace"
      $0.email = "ada@classnotes.example"
    }
    let grace = Classnotes_V1_Teacher.with {
      $0.id = "tch_grace"
      $0.displayName = "Grace Hopper"
      $0.email = "grace@classnotes.example"
    }
    return [
      .with {
        $0.id = LessonStore.identifier(for: 1)
        $0.title = "Introduction to Algorithms"
        $0.teacher = ada
        $0.labels = ["cs", "intro"]
        $0.metadata = ["term": "2026-autumn", "level": "beginner"]
        $0.createdAt = timestamp
        $0.state = .published
        $0.viewCount = 1280
        $0.summary = "Sorting, searching and the cost of both."
        $0.durationMinutes = 90
        $0.room = .with {
          $0.building = "North"
          $0.number = 101
        }
      },
      .with {
        $0.id = LessonStore.identifier(for: 2)
        $0.title = "Compilers: from source to machine code"
        $0.teacher = grace
        $0.labels = ["cs", "compilers"]
        $0.metadata = ["term": "2026-autumn"]
        $0.createdAt = timestamp
        $0.state = .draft
        $0.viewCount = 42
        $0.meetingURL = "https://meet.classnotes.example/compilers"
      },
      .with {
        $0.id = LessonStore.identifier(for: 3)
        $0.title = "Numerical methods"
        $0.teacher = ada
        $0.labels = ["math"]
        $0.createdAt = timestamp
        $0.state = .archived
        $0.viewCount = 9_007_199_254_740_993
      },
    ]
  }
}
