import APXServing
import Hummingbird
import NIOCore

/// `GET /_demo/drip?size=N&chunk=C&every_ms=M` (test-only): a slow download. It announces
/// `Content-Length: N` and sends N bytes of `application/octet-stream`, C bytes (default
/// 64 KiB) every M milliseconds (default 100), so a client's download progress can be
/// watched, and interrupted, while it lasts. A stopping server ends the body at once, short
/// of its length, as a server going away would; so shutdown never waits for a slow client.
struct DripRoutes: Sendable {
  let stopping: StopSignal

  /// Adds the route to `router`.
  func register(on router: Router<ServerRequestContext>) {
    router.get("_demo/drip") { request, _ in try drip(request) }
  }

  private func drip(_ request: Request) throws -> Response {
    let size = try request.intQuery("size", in: 0...(1 << 40), default: 1_048_576)
    let chunk = try request.intQuery("chunk", in: 1...(1 << 20), default: 64 * 1024)
    let every = try request.intQuery("every_ms", in: 0...10_000, default: 100)
    let stopping = self.stopping
    return Response(
      status: .ok, headers: [.contentType: "application/octet-stream"],
      body: ResponseBody(contentLength: size) { writer in
        let bytes = ByteBuffer(repeating: UInt8(ascii: "x"), count: chunk)
        var remaining = size
        let clock = ContinuousClock()
        while remaining > 0 {
          let length = min(remaining, chunk)
          try await writer.write(bytes.getSlice(at: bytes.readerIndex, length: length) ?? bytes)
          remaining -= length
          guard remaining > 0 else { break }
          // Short sleeps, so a stopping server is noticed soon.
          let next = clock.now.advanced(by: .milliseconds(every))
          while clock.now < next {
            if stopping.isRaised { throw CancellationError() }
            try await clock.sleep(for: min(StallRoutes.pollInterval, next - clock.now))
          }
        }
        try await writer.finish(nil)
      })
  }
}
