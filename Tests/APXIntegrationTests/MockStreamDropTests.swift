import APXCore
import Foundation
import Testing

/// `--drop-mode` and `drop-mode=`: an event stream dropped by closing it properly, or by
/// cutting the connection in the middle of the body, as a crashed server does.
@Suite("apx mock stream drops", .timeLimit(.minutes(5)))
struct MockStreamDropTests {
  /// The raw bytes of `GET /ticks` with the given fault header.
  static func rawTicks(port: Int, fault: String) async throws -> String {
    let request =
      "GET /ticks HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nX-Apx-Mock-Fault: \(fault)\r\n\r\n"
    return String(decoding: try await LoopbackHTTP.exchange(port: port, Array(request.utf8)), as: UTF8.self)
  }

  @Test func anAbortedStreamLacksItsLastChunkAndAClosedOneHasIt() async throws {
    try await MockProcess.with(["shop", "--registry", try MockCommandTests.registry()]) { mock in
      let port = try mock.port()
      let closed = try await Self.rawTicks(port: port, fault: "drop-every=3")
      let aborted = try await Self.rawTicks(port: port, fault: "drop-every=3; drop-mode=abort")
      for raw in [closed, aborted] {
        #expect(raw.contains("transfer-encoding: chunked") || raw.contains("Transfer-Encoding: chunked"), "\(raw)")
        #expect(raw.contains("id: 3\n") && !raw.contains("id: 4\n"), "\(raw)")
      }
      #expect(closed.hasSuffix("0\r\n\r\n"), "\(closed)")
      #expect(!aborted.hasSuffix("0\r\n\r\n"), "\(aborted)")
      let bad = try await LoopbackHTTP.request(
        port: port, "GET", "/ticks", headers: ["X-Apx-Mock-Fault": "drop-every=3; drop-mode=sideways"])
      #expect(bad.status == 400, "\(bad.text)")
      let modeAlone = try await LoopbackHTTP.request(
        port: port, "GET", "/ticks", headers: ["X-Apx-Mock-Fault": "drop-mode=abort"])
      #expect(modeAlone.status == 400 && modeAlone.text.contains("give drop-every=N with it"), "\(modeAlone.text)")
    }
  }

  @Test func apxResumesAnAbortedStreamAndGetsEveryEventOnce() async throws {
    let registry = try MockCommandTests.registry()
    let run = try await MockProcess.with(
      ["shop", "--registry", registry, "--drop-every", "4", "--drop-mode", "abort", "--sse-events", "9"]
    ) { mock in
      let base = try #require(mock.urls["shop"])
      let r = try await APXProcess.run(["call", "--registry", registry, "shop.ticks", "--base-url", base])
      #expect(r.status == 0, "\(r.stderr)")
      let events = try r.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
      #expect(events.map { $0["id"]?.stringValue } == (1...10).map { String($0) })
    }
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(stderr.contains("fault: aborted the stream after event 4: GET /ticks"), "\(stderr)")
  }

  @Test(arguments: [
    (["--drop-mode", "abort"], "give --drop-every N with it"),
    (["--drop-every", "2", "--drop-mode", "sideways"], "--drop-mode must be close or abort"),
  ])
  func aDropModeThatCannotApplyIsRefused(arguments: [String], message: String) async throws {
    let r = try await APXProcess.run(["mock"] + arguments)
    #expect(r.status == 2)
    #expect(r.stderr.contains(message), "\(r.stderr)")
  }
}
