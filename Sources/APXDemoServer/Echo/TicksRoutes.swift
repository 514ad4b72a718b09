import APXServing
import HTTPTypes
import Hummingbird
import NIOCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Test-only `/_demo/ticks`: JSON or an event stream depending on a request field, as
/// APIs with a `stream: true` option answer.
///
/// GET takes `n`, `stream` and `drop_after` from the query; POST from a JSON body
/// `{"n": 3, "stream": true, "drop_after": 2}`. Without `stream` the answer is
/// `{"ticks":[{"n":1},...]}`; with it, `text/event-stream` (406 unless `Accept` admits it):
/// `id: N`, `event: tick`, `data: {"n":N}` for N in 1...n, then `event: done`. The stream
/// resumes after `Last-Event-ID`, and with `drop_after` K each connection is closed after K
/// events, as a proxy cutting long connections would; `retry: 100` asks for quick reconnections
/// (GET's `retry_ms` asks for another delay, e.g. 0 as careless servers send).
struct TicksRoutes: Sendable {
  /// What the request asks for.
  struct Options: Decodable {
    var n: Int?
    var stream: Bool?
    var dropAfter: Int?
    var retryMs: Int?

    enum CodingKeys: String, CodingKey {
      case n, stream
      case dropAfter = "drop_after"
    }
  }

  /// Largest POST body read.
  static let maxBodyBytes = 16 * 1024

  /// Adds the routes to `router`.
  func register(on router: Router<ServerRequestContext>) {
    router.get("_demo/ticks") { request, context in
      let stream: Bool? =
        switch request.query("stream") {
        case nil: nil
        case "true": true
        case "false": false
        case let other?:
          throw DemoError.badRequest(
            "invalid_parameter", "query parameter 'stream' must be true or false, got '\(other)'")
        }
      let options = Options(
        n: try request.intQuery("n", in: 0...10_000, default: 3), stream: stream,
        dropAfter: try request.intQuery("drop_after", in: 0...10_000, default: 0),
        retryMs: try request.intQuery("retry_ms", in: 0...60_000, default: 100))
      return try Self.answer(options, to: request, channel: context.channel)
    }
    router.post("_demo/ticks") { request, context in
      var request = request
      let body = try await request.collectBody(upTo: Self.maxBodyBytes)
      guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
        throw DemoError(
          status: .unsupportedMediaType, code: "unsupported_media_type", message: "send a JSON body")
      }
      let options: Options
      do {
        options = try JSONDecoder().decode(Options.self, from: Data(body.readableBytesView))
      } catch {
        throw DemoError.badRequest(
          "invalid_body", "the body must be {\"n\": int, \"stream\": bool, \"drop_after\": int}")
      }
      guard (0...10_000).contains(options.n ?? 3), (0...10_000).contains(options.dropAfter ?? 0) else {
        throw DemoError.badRequest("invalid_body", "n and drop_after must be between 0 and 10000")
      }
      return try Self.answer(options, to: request, channel: context.channel)
    }
  }

  static func answer(_ options: Options, to request: Request, channel: any Channel) throws -> Response {
    let count = options.n ?? 3
    guard options.stream == true else {
      let ticks = (0..<count).map { JSONText.object([("n", .int($0 + 1))]) }
      return DemoResponse.json(.object([("ticks", .array(ticks))]))
    }
    try EventStreamNegotiation.require(request)
    let after = request.header("Last-Event-ID").flatMap { Int($0) }.map { max(0, $0) } ?? 0
    let dropAfter = options.dropAfter ?? 0
    let retry = options.retryMs ?? 100
    var headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"]
    // A connection that will be cut must not be reused by the client's pool afterwards.
    if dropAfter > 0 { headers[.connection] = "close" }
    return Response(
      status: .ok, headers: headers,
      body: ResponseBody { writer in
        // A short reconnection delay, so that tests of drops run quickly.
        try await writer.write(ByteBuffer(string: "retry: \(retry)\n\n"))
        var sent = 0
        for n in stride(from: after + 1, through: count + 1, by: 1) {
          let text =
            n <= count ? "id: \(n)\nevent: tick\ndata: {\"n\":\(n)}\n\n" : "id: \(n)\nevent: done\ndata: {}\n\n"
          try await writer.write(ByteBuffer(string: text))
          sent += 1
          if dropAfter > 0, sent >= dropAfter, n <= count {
            try await writer.finish(nil)
            try? await channel.close()
            return
          }
        }
        try await writer.finish(nil)
      })
  }
}
