import APXCore
import AsyncHTTPClient
import NIOCore

/// Forwards a response body to a sink on the event loop that reads the socket.
///
/// AsyncHTTPClient hands the body over one chunk at a time (its buffer holds a
/// single chunk): consumed on Swift's cooperative pool, every chunk cost two
/// thread wake-ups and a read-interest toggle, and `-o raw` of 1 GiB swung
/// between 0.5 s and 1.3 s with how the threads happened to be scheduled
/// (curl: 0.5 s). Isolated to the connection's event loop, the hand-over is a
/// queued job on the same thread. Sinks only buffer or write to stdout, so the
/// loop is never blocked for long (a full pipe is backpressure all the same).
actor BodyPump {
  nonisolated let eventLoop: any EventLoop

  nonisolated var unownedExecutor: UnownedSerialExecutor { eventLoop.executor.asUnownedSerialExecutor() }

  init(eventLoop: any EventLoop) { self.eventLoop = eventLoop }

  /// Sends every chunk of `body` to `sink` as it arrives.
  func forward(_ body: HTTPClientResponse.Body, to sink: any CallEventSink) async throws {
    for try await chunk in body {
      try sink.receive(.bodyChunk(BodyChunk(chunk)))
    }
  }
}
