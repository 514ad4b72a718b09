import APXDemoServer
import SwiftProtobuf

/// The message the codec benchmark measures: a typical `classnotes.v1.Lesson`
/// that uses each feature a real response carries — a nested message, a
/// repeated string, a map, a Timestamp, an enum, an int64, proto3 optionals
/// and a oneof member.
enum BenchLesson {
  /// A filled-in lesson, built with swift-protobuf's generated type.
  static func make() -> Classnotes_V1_Lesson {
    .with {
      $0.id = "les_0001"
      $0.title = "Introduction to Algorithms"
      $0.teacher = .with {
        $0.id = "tch_ada"
        $0.displayName = "Ada Lovelace"
        $0.email = "ada@classnotes.example"
      }
      $0.labels = ["cs", "intro", "sorting", "searching"]
      $0.metadata = ["term": "2026-autumn", "level": "beginner", "campus": "north"]
      $0.createdAt = .with {
        $0.seconds = 1_795_000_000
        $0.nanos = 123_000_000
      }
      $0.state = .published
      $0.viewCount = 1280
      $0.summary = "Sorting, searching and the cost of both."
      $0.durationMinutes = 90
      $0.room = .with {
        $0.building = "North"
        $0.number = 101
      }
    }
  }
}
