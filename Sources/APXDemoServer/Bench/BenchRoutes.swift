import APXServing
import HTTPTypes
import Hummingbird
import NIOCore

/// Load generators for benchmarks: streamed SSE, JSON and bytes with bounded memory.
struct BenchRoutes: Sendable {
  /// Events per written buffer on `/bench/events`.
  static let eventsPerBuffer = 4096
  /// Chunk size on `/bench/bytes` and target chunk size on `/bench/json`.
  static let chunkBytes = 64 * 1024

  /// Adds the routes under `/api/v2/bench` of `api`.
  func register(on api: RouterGroup<ServerRequestContext>) {
    api.get("bench/events") { request, _ in try events(request) }
    api.get("bench/json") { request, _ in try json(request) }
    api.get("bench/bytes") { request, _ in try bytes(request) }
    api.get("bench/small") { _, _ in small() }
  }

  /// `count` tiny SSE events (`id: N`, `event: tick`, `data: {"n":N}`), written in batches.
  private func events(_ request: Request) throws -> Response {
    try EventStreamNegotiation.require(request)
    let count = try request.intQuery("count", in: 0...100_000_000, default: 1000)
    let headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"]
    return Response(
      status: .ok, headers: headers,
      body: ResponseBody { writer in
        var buffer = ByteBufferAllocator().buffer(capacity: Self.eventsPerBuffer * 40)
        var n = 1
        while n <= count {
          let last = min(count, n + Self.eventsPerBuffer - 1)
          buffer.clear()
          for index in n...last {
            buffer.writeString("id: \(index)\nevent: tick\ndata: {\"n\":\(index)}\n\n")
          }
          try await writer.write(buffer)
          n = last + 1
        }
        try await writer.finish(nil)
      })
  }

  /// About `mb` megabytes of JSON: `{"items":[{...},...],"count":N}`, generated chunk by chunk.
  private func json(_ request: Request) throws -> Response {
    let megabytes = try request.doubleQuery("mb", in: 0...4096) ?? 1
    let target = Int(megabytes * 1_048_576)
    return Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody { writer in
        var buffer = ByteBufferAllocator().buffer(capacity: Self.chunkBytes + 1024)
        buffer.writeString("{\"items\":[")
        var flushed = 0
        var index = 0
        while flushed + buffer.readableBytes < target || index == 0 {
          if index > 0 { buffer.writeString(",") }
          buffer.writeString(Self.jsonItem(index))
          index += 1
          if buffer.readableBytes >= Self.chunkBytes {
            flushed += buffer.readableBytes
            try await writer.write(buffer)
            buffer.clear()
          }
        }
        buffer.writeString("],\"count\":\(index)}")
        try await writer.write(buffer)
        try await writer.finish(nil)
      })
  }

  /// One generated item: strings (with escapes and non-ASCII), numbers, nested objects, arrays.
  static func jsonItem(_ index: Int) -> String {
    """
    {"id":\(index),"uuid":"00000000-0000-4000-8000-\(String(format12: index))","name":"Item \(index) \\"quoted\\" café",\
    "price":\(index % 1000).\(index % 100 < 10 ? "0" : "")\(index % 100),"active":\(index % 2 == 0),\
    "tags":["alpha","beta","γ-\(index % 7)"],"owner":{"id":\(index * 31 % 100_000),"name":"User \(index % 977)",\
    "address":{"city":"Zürich","zip":"80\(index % 100)"}},"score":\(Double(index % 1000) / 8)}
    """
  }

  /// Exactly `size` bytes of `application/octet-stream`, in 64 KiB chunks.
  private func bytes(_ request: Request) throws -> Response {
    let size = try request.intQuery("size", in: 0...(1 << 40), default: 1_048_576)
    var pattern = ByteBufferAllocator().buffer(capacity: Self.chunkBytes)
    for index in 0..<Self.chunkBytes { pattern.writeInteger(UInt8(truncatingIfNeeded: index)) }
    let chunk = pattern
    return Response(
      status: .ok, headers: [.contentType: "application/octet-stream"],
      body: ResponseBody(contentLength: size) { writer in
        var remaining = size
        while remaining > 0 {
          let length = min(remaining, Self.chunkBytes)
          try await writer.write(chunk.getSlice(at: chunk.readerIndex, length: length) ?? chunk)
          remaining -= length
        }
        try await writer.finish(nil)
      })
  }

  /// A small fixed JSON object (~200 bytes) for request-rate benchmarks.
  private func small() -> Response {
    DemoResponse.json(
      .object([
        ("id", .number("42")),
        ("title", .string("The Left Hand of Darkness")),
        ("author", .object([("name", .string("Ursula K. Le Guin")), ("born", .number("1929"))])),
        ("isbn", .string("978-0-441-47812-5")),
        ("rating", .number("4.50")),
        ("tags", .array([.string("sf"), .string("classic"), .string("hainish")])),
        ("available", .bool(true)),
      ]))
  }
}

extension String {
  /// `value` as 12 zero-padded decimal digits (used in generated UUIDs).
  fileprivate init(format12 value: Int) {
    let digits = String(value % 1_000_000_000_000)
    self = String(repeating: "0", count: 12 - digits.count) + digits
  }
}
