import APXCore
import AsyncHTTPClient
import NIOCore

/// Forwards a response body to a sink on the event loop that reads the socket.
///
/// AsyncHTTPClient hands the body over one chunk at a time (its buffer holds a
/// single chunk): consumed on Swift's cooperative pool, every chunk cost two
/// thread wake-ups and a read-interest toggle, and `-o raw` of 1 GiB swung
/// between 0.5 s and 1.3 s with how the threads happened to be scheduled
/// (curl: 0.5 s). With the event loop as the task's executor preference, the
/// consuming loop and the iterator's `next()` run on the loop's thread, so the
/// hand-over is a queued job on the same thread. (An actor isolated to the loop
/// is not enough: the iterator's nonisolated `next()` hopped to the pool and
/// back, 2.5x slower still.) Sinks only buffer or write to stdout, so the loop
/// is never blocked for long; a full pipe is backpressure all the same. A call
/// already runs on its session's loop (`HTTPSession.with`); the pump says so
/// again for a caller that started a task of its own.
struct BodyPump: Sendable {
  let executor: EventLoopTaskExecutor

  init(executor: EventLoopTaskExecutor) { self.executor = executor }

  /// Sends every chunk of `body` to `sink` as it arrives.
  ///
  /// - Parameter lineLimit: an NDJSON body's `--max-events`: after that many non-blank
  ///   lines the rest is dropped and the connection closed (returning ends the iteration,
  ///   and AsyncHTTPClient cancels a request whose body is no longer read).
  func forward(_ body: HTTPClientResponse.Body, to sink: any CallEventSink, lineLimit: Int? = nil) async throws {
    try await withTaskExecutorPreference(executor) {
      guard let lineLimit else {
        for try await chunk in body {
          try sink.receive(.bodyChunk(BodyChunk(chunk)))
        }
        return
      }
      var counter = LineCounter(limit: lineLimit)
      for try await chunk in body {
        guard let end = chunk.withUnsafeReadableBytes({ counter.end(in: $0) }) else {
          try sink.receive(.bodyChunk(BodyChunk(chunk)))
          continue
        }
        try sink.receive(.bodyChunk(BodyChunk(chunk.getSlice(at: chunk.readerIndex, length: end) ?? chunk)))
        return
      }
    }
  }
}
