import NIOCore
import Synchronization

/// Reports how much of a streamed request body (a file, stdin, a multipart
/// upload) has gone out, as `CallEvent.bodySent` events to the call's sink.
///
/// AsyncHTTPClient pulls the body on a task of its own, while the call's task
/// waits for the response head. Events are sent under a lock, and `close()`
/// takes it too: once the response head is in (or the attempt failed) no
/// further event reaches the sink, even when a server answered before reading
/// the whole body, so the sink still sees one task at a time.
final class UploadProgress: Sendable {
  private let sink: any CallEventSink
  /// Bytes handed to the connection so far; nil once closed.
  private let sent = Mutex<Int?>(0)

  init(sink: any CallEventSink) { self.sink = sink }

  /// `count` more bytes of a body of `total` bytes (nil: unknown, as for stdin) went out.
  func add(_ count: Int, total: Int64?) {
    sent.withLock { sent in
      guard let before = sent else { return }
      sent = before + count
      // A sink that throws (stdout closed) ends the call where it reads the response.
      try? sink.receive(.bodySent(bytes: before + count, total: total.map(Int.init)))
    }
  }

  /// No more events: the attempt has its answer, or failed.
  func close() { sent.withLock { $0 = nil } }
}

/// A streamed body that tells `progress` about each chunk as AsyncHTTPClient takes it.
struct CountedChunks<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element == ByteBuffer {
  typealias Element = ByteBuffer
  let base: Base
  let total: Int64?
  let progress: UploadProgress

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), total: total, progress: progress) }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let total: Int64?
    let progress: UploadProgress

    mutating func next() async throws -> ByteBuffer? {
      guard let chunk = try await base.next() else { return nil }
      progress.add(chunk.readableBytes, total: total)
      return chunk
    }
  }
}
