import APXDemoServer
import Foundation
import GRPCCore
import SwiftProtobuf
import Testing

@Suite("Demo gRPC server: streaming calls", .timeLimit(.minutes(5)))
struct DemoGRPCStreamingTests {
  @Test func processingStatusWalksThroughTheFourStages() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let statuses = try await api.streamProcessingStatus(
        .with {
          $0.lessonID = "les_0001"
          $0.delayMs = 1
        }
      ) { response in
        var received: [Classnotes_V1_ProcessingStatus] = []
        for try await status in response.messages { received.append(status) }
        return received
      }
      #expect(statuses.map(\.stage) == [.queued, .ocr, .analysis, .completed])
      #expect(statuses.map(\.sequence) == [1, 2, 3, 4])
      #expect(statuses.first?.progress == 0)
      #expect(statuses.last?.progress == 1)
      #expect(statuses.allSatisfy { $0.lessonID == "les_0001" && !$0.message.isEmpty })
    }
  }

  @Test func processingStatusCountOverrideStreamsManyMessages() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let (count, last) = try await api.streamProcessingStatus(
        .with {
          $0.lessonID = "les_0002"
          $0.count = 20_000
        }
      ) { response in
        var count = 0
        var last: Classnotes_V1_ProcessingStatus?
        for try await status in response.messages {
          count += 1
          last = status
        }
        return (count, last)
      }
      #expect(count == 20_000)
      #expect(last?.stage == .completed)
      #expect(last?.sequence == 20_000)
    }
  }

  @Test func processingStatusOfUnknownLessonIsNotFound() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let error = await DemoGRPCHarness.rpcError {
        try await api.streamProcessingStatus(.with { $0.lessonID = "les_4242" }) { response in
          for try await _ in response.messages {}
        }
      }
      #expect(error?.code == .notFound)
    }
  }

  @Test func uploadReportsSizeAndSHA256() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let summary = try await api.uploadDocumentChunks { writer in
        try await writer.write(
          .with {
            $0.filename = "notes.txt"
            $0.data = Data("hello ".utf8)
          }
        )
        try await writer.write(.with { $0.data = Data("world".utf8) })
      }
      #expect(summary.filename == "notes.txt")
      #expect(summary.totalSize == 11)
      #expect(summary.chunkCount == 2)
      // sha256("hello world"), as printed by `printf 'hello world' | sha256sum`.
      #expect(summary.sha256 == "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9")
    }
  }

  @Test func uploadOfManyBlocksMatchesAKnownDigest() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      // One million 'a' bytes in uneven chunks: the FIPS 180-2 long test vector.
      let summary = try await api.uploadDocumentChunks { writer in
        var remaining = 1_000_000
        var size = 1
        while remaining > 0 {
          let chunk = min(size, remaining)
          try await writer.write(.with { $0.data = Data(repeating: UInt8(ascii: "a"), count: chunk) })
          remaining -= chunk
          size = size * 3 + 7
        }
      }
      #expect(summary.totalSize == 1_000_000)
      #expect(summary.sha256 == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
  }

  @Test func emptyUploadIsInvalidArgument() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let error = await DemoGRPCHarness.rpcError {
        _ = try await api.uploadDocumentChunks { _ in }
      }
      #expect(error?.code == .invalidArgument)
    }
  }

  @Test func syncAcknowledgesEachChangeBeforeTheNextIsSent() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let (acks, ackContinuation) = AsyncStream.makeStream(of: Classnotes_V1_DocumentAck.self)
      let changes: [Classnotes_V1_DocumentChange] = [
        .with {
          $0.documentID = "doc-1"
          $0.operation = .upsert
          $0.content = "v1"
        },
        .with {
          $0.documentID = "doc-1"
          $0.operation = .upsert
          $0.baseVersion = 1
          $0.content = "v2"
        },
        .with {
          $0.documentID = "doc-1"
          $0.operation = .upsert
          $0.baseVersion = 1  // stale: the server is at version 2
        },
        .with {
          $0.documentID = "doc-1"
          $0.operation = .delete
        },
      ]
      let box = AckBox()
      let seen = try await api.syncDocuments { writer in
        // Each change waits for the previous ack: the server must answer without waiting for
        // the request stream to end, or this deadlocks (and the time limit fails the test).
        var iterator = acks.makeAsyncIterator()
        var seen: [Classnotes_V1_DocumentAck] = []
        for change in changes {
          try await writer.write(change)
          guard let ack = await iterator.next() else { break }
          seen.append(ack)
        }
        await box.set(seen)
      } onResponse: { response in
        for try await ack in response.messages { ackContinuation.yield(ack) }
        ackContinuation.finish()
        return await box.get()
      }
      #expect(seen.map(\.accepted) == [true, true, false, true])
      #expect(seen.map(\.version) == [1, 2, 2, 0])
      #expect(seen[2].reason.contains("conflict"))
    }
  }
}

/// Hands the acks the request producer saw over to the response handler.
private actor AckBox {
  private var acks: [Classnotes_V1_DocumentAck] = []
  func set(_ acks: [Classnotes_V1_DocumentAck]) { self.acks = acks }
  func get() -> [Classnotes_V1_DocumentAck] { self.acks }
}
