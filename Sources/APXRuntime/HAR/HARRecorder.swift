public import APXCore
import NIOHTTP1
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Builds the HAR entries of one call from its events: one entry per request sent (each
/// redirect hop and retry is its own), with the answer's head, its body as text (base64 when
/// it is not UTF-8), an event stream's events in the text (and when each arrived, in
/// milliseconds after the answer's head, in an `_apx` field), and a gRPC call's messages and
/// trailers in an `_apx` field; a WebSocket's messages both ways in Chrome's `_webSocketMessages`,
/// which HAR viewers read. Headers and URLs arrive masked (as `-v` shows them), request
/// bodies masked by the call's secrets (`.requestBody`), and answers are masked here with the
/// attempt's secrets (`.secrets`).
public final class HARRecorder: Sendable {
  /// The most body bytes an entry keeps; the rest is counted, and noted in its comment.
  public static let bodyLimit = 16 * 1_048_576

  private let log: HARLog
  private let current = Mutex<Exchange?>(nil)

  init(log: HARLog) { self.log = log }

  private struct Exchange {
    var started = Date().timeIntervalSince1970
    var startInstant = ContinuousClock.now
    var headInstant: ContinuousClock.Instant?
    var method: String
    var url: String
    var requestHeaders: [HeaderField]
    var requestBody: RequestBodySummary?
    var status = 0
    var version = "HTTP/1.1"
    var responseHeaders: [HeaderField] = []
    var body: [UInt8] = []
    var bodySize = 0
    var messages: [JSONValue] = []
    /// When each message arrived: milliseconds after the answer's head.
    var messageTimes: [Double] = []
    var trailers: [HeaderField] = []
    /// A WebSocket handshake: its messages go in `_webSocketMessages`, not in the content.
    var isWebSocket = false
    var webSocketMessages: [WebSocketMessage] = []
    /// Payload bytes kept in `webSocketMessages` (at most `bodyLimit`), and the messages left out.
    var webSocketBytes = 0
    var webSocketOmitted = 0
    /// The attempt's secrets: masked in the recorded answer too.
    var mask = SecretMask()
  }

  /// One data message of a WebSocket, as Chrome's `_webSocketMessages` lists it.
  private struct WebSocketMessage {
    var sent: Bool
    /// Seconds since 1970, as Chrome writes `time`.
    var time: Double
    var binary: Bool
    var payload: [UInt8]
  }

  /// Takes one event of the call.
  public func record(_ event: CallEvent) {
    switch event {
    case .requestSent(let method, let url, let headers, _):
      let finished = current.withLock { exchange -> Exchange? in
        let previous = exchange.take()
        exchange = Exchange(method: method, url: url, requestHeaders: headers)
        return previous
      }
      if let finished { add(finished) }
    case .requestBody(let summary):
      current.withLock { $0?.requestBody = summary }
    case .secrets(let mask):
      current.withLock { $0?.mask = mask }
    case .responseHead(let status, let version, let headers):
      current.withLock {
        $0?.status = status
        $0?.version = version
        $0?.responseHeaders = headers
        $0?.headInstant = .now
      }
    case .bodyChunk(let chunk):
      current.withLock { exchange in
        // Taken out and put back: comparing the optional with nil would copy the exchange.
        guard var x = exchange.take() else { return }
        x.bodySize += chunk.count
        let room = Self.bodyLimit - x.body.count
        if room > 0 { chunk.withUnsafeBytes { x.body.append(contentsOf: $0.prefix(room)) } }
        exchange = x
      }
    case .message(let value):
      let now = ContinuousClock.now
      current.withLock { exchange in
        guard var x = exchange.take() else { return }
        x.messages.append(value)
        x.messageTimes.append(Self.milliseconds(now - (x.headInstant ?? x.startInstant)))
        exchange = x
      }
    case .trailers(let fields):
      current.withLock { $0?.trailers = fields }
    case .webSocketFrame(let sent, let opcode, _, let payload):
      let time = Date().timeIntervalSince1970
      current.withLock { exchange in
        guard var x = exchange.take() else { return }
        x.isWebSocket = true
        if opcode == .text || opcode == .binary {
          if x.webSocketBytes + payload.count <= Self.bodyLimit {
            x.webSocketBytes += payload.count
            x.webSocketMessages.append(
              WebSocketMessage(sent: sent, time: time, binary: opcode == .binary, payload: Array(payload)))
          } else {
            x.webSocketOmitted += 1
          }
        }
        exchange = x
      }
    case .finished:
      if let finished = current.withLock({ $0.take() }) { add(finished) }
    default:
      break
    }
  }

  private func add(_ exchange: Exchange) {
    // Room for the layout and headers, and for the body's text with its escapes.
    let size = 4096 + 2 * exchange.body.count
    log.add(started: exchange.started, size: size) { Self.entry(exchange, into: &$0) }
  }

  private static func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return (Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded(toPlaces: 3)
  }

  /// The entry's JSON text, written straight from the exchange as it prints in the archive.
  private static func entry(_ x: Exchange, into out: inout JSONWriter) {
    let end = ContinuousClock.now
    let wait = x.headInstant.map { milliseconds($0 - x.startInstant) } ?? milliseconds(end - x.startInstant)
    let receive = x.headInstant.map { milliseconds(end - $0) } ?? 0
    let contentType = header("content-type", in: x.responseHeaders) ?? ""
    let isGRPC = contentType.lowercased().hasPrefix("application/grpc")
    out.beginObject()
    out.member("startedDateTime", UTCTimestamp.iso8601(secondsSince1970: x.started))
    out.key("time")
    out.number(String(wait + receive))

    out.key("request")
    out.beginObject()
    out.member("method", x.method)
    out.member("url", x.url)
    out.member("httpVersion", x.version)
    emptyList("cookies", &out)
    out.key("headers")
    headers(x.requestHeaders, &out)
    out.key("queryString")
    queryString(x.url, &out)
    out.member("headersSize", -1)
    out.member("bodySize", x.requestBody?.size ?? (x.requestBody == nil ? 0 : -1))
    if let body = x.requestBody {
      out.key("postData")
      out.beginObject()
      out.member("mimeType", body.mimeType)
      out.member("text", body.text ?? "")
      out.endObject()
    }
    out.endObject()

    out.key("response")
    out.beginObject()
    out.member("status", x.status)
    out.member("statusText", x.status == 0 ? "" : HTTPResponseStatus(statusCode: x.status).reasonPhrase)
    out.member("httpVersion", x.version)
    emptyList("cookies", &out)
    out.key("headers")
    headers(x.responseHeaders, &out)
    out.key("content")
    out.beginObject()
    out.member("size", x.bodySize)
    out.member("mimeType", contentType.isEmpty ? "x-unknown" : contentType)
    if !x.isWebSocket { content(x, isGRPC: isGRPC, &out) }
    out.endObject()
    out.member("redirectURL", header("location", in: x.responseHeaders) ?? "")
    out.member("headersSize", -1)
    out.member("bodySize", x.status == 0 ? -1 : x.bodySize)
    out.endObject()

    out.key("cache")
    out.beginObject()
    out.endObject()
    out.key("timings")
    out.beginObject()
    out.member("send", 0)
    out.key("wait")
    out.number(String(wait))
    out.key("receive")
    out.number(String(receive))
    out.endObject()
    if x.isWebSocket {
      out.member("_resourceType", "websocket")
      out.key("_webSocketMessages")
      webSocketMessages(x, &out)
      if x.webSocketOmitted > 0 {
        out.member(
          "comment",
          "the first \(x.webSocketMessages.count) of \(x.webSocketMessages.count + x.webSocketOmitted) messages")
      }
    } else if isGRPC || !x.messages.isEmpty {
      out.key("_apx")
      apxField(x, isGRPC: isGRPC, &out)
    }
    out.endObject()
  }

  /// `name: []`, a list HAR asks for that apx keeps empty.
  private static func emptyList(_ name: String, _ out: inout JSONWriter) {
    out.key(name)
    out.beginArray()
    out.endArray()
  }

  /// The entry's `_apx` field: a gRPC call's messages and trailers, or when each event of a
  /// stream arrived.
  private static func apxField(_ x: Exchange, isGRPC: Bool, _ out: inout JSONWriter) {
    out.beginObject()
    if isGRPC {
      // HAR has no place for gRPC messages: they go, as apx prints them, in a custom field
      // (HAR 1.2 allows fields that start with an underscore).
      out.key("messages")
      out.beginArray()
      for message in x.messages { out.value(masked(message, x.mask)) }
      out.endArray()
      out.key("trailers")
      out.beginArray()
      for field in x.trailers {
        out.beginObject()
        out.member("name", field.name)
        out.member("value", field.value)
        out.endObject()
      }
      out.endArray()
    } else {
      // When each event arrived, so that a replay can space them as recorded.
      out.key("events")
      eventTimes(x, &out)
    }
    out.endObject()
  }

  /// `[{"type": "send"|"receive", "time": SECONDS, "opcode": 1|2, "data": ...}]`, as Chrome
  /// writes a WebSocket's messages: text as it is (masked), binary as base64 (masked first).
  private static func webSocketMessages(_ x: Exchange, _ out: inout JSONWriter) {
    out.beginArray()
    for message in x.webSocketMessages {
      out.beginObject()
      out.member("type", message.sent ? "send" : "receive")
      out.key("time")
      out.number(String(message.time.rounded(toPlaces: 6)))
      out.member("opcode", message.binary ? 2 : 1)
      if !message.binary, let text = String(validating: message.payload, as: UTF8.self) {
        out.member("data", x.mask.mask(text))
      } else {
        out.member("data", Data(x.mask.mask(bytes: message.payload)).base64EncodedString())
      }
      out.endObject()
    }
    out.endArray()
  }

  /// The value of the first field named `name` (lower case), whatever the case of its name.
  private static func header(_ name: String, in fields: [HeaderField]) -> String? {
    // Comparing lengths first spares lower-casing the other names.
    fields.first { $0.name.utf8.count == name.utf8.count && $0.name.lowercased() == name }?.value
  }

  /// The rest of `"content"` after its size and type: the answer's text (masked), base64 when
  /// it is not UTF-8.
  private static func content(_ x: Exchange, isGRPC: Bool, _ out: inout JSONWriter) {
    // An event stream's own bytes when they were recorded (a proxy sees them), else its events.
    if !x.messages.isEmpty, !isGRPC, x.body.isEmpty {
      out.member("text", x.mask.mask(eventText(x.messages)))
    } else if !x.body.isEmpty {
      out.key("text")
      if !x.mask.masksText, isASCII(x.body) {
        // Nothing to mask and valid UTF-8 as it is: escaped straight from the bytes.
        out.string(utf8: x.body)
      } else if let text = String(validating: x.body, as: UTF8.self) {
        out.string(x.mask.mask(text))
      } else {
        // Bytes that are not text may still hold a credential the server echoed.
        out.string(Data(x.mask.mask(bytes: x.body)).base64EncodedString())
        out.member("encoding", "base64")
      }
      if x.bodySize > x.body.count {
        out.member("comment", "the first \(x.body.count) of \(x.bodySize) bytes")
      }
    }
  }

  /// Whether every byte is ASCII (so the bytes are valid UTF-8).
  private static func isASCII(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in
      var any: UInt8 = 0
      for b in buffer { any |= b }
      return any < 0x80
    }
  }

  /// `value` with each string masked (a gRPC message may echo a credential).
  private static func masked(_ value: JSONValue, _ mask: SecretMask) -> JSONValue { mask.mask(value) }

  /// `[{"time": MS, "id": ..., "event": ...}]`: each event's arrival, its id and type when set.
  private static func eventTimes(_ x: Exchange, _ out: inout JSONWriter) {
    out.beginArray()
    for (event, time) in zip(x.messages, x.messageTimes) {
      out.beginObject()
      out.key("time")
      out.number(String(time))
      if let id = event["id"]?.stringValue { out.member("id", x.mask.mask(id)) }
      // A server may echo a credential in the event's type as in any field.
      if let type = event["event"]?.stringValue { out.member("event", x.mask.mask(type)) }
      out.endObject()
    }
    out.endArray()
  }

  /// A request's or answer's `"headers"` value: `[{"name": ..., "value": ...}, ...]`.
  private static func headers(_ fields: [HeaderField], _ out: inout JSONWriter) {
    out.beginArray()
    for field in fields { pair(field.name, field.value, &out) }
    out.endArray()
  }

  /// One `{"name": ..., "value": ...}` of a `headers` or `queryString` list.
  private static func pair(_ name: String, _ value: String, _ out: inout JSONWriter) {
    out.beginObject()
    out.member("name", name)
    out.member("value", value)
    out.endObject()
  }

  /// A request's `"queryString"` value: the URL's query as HAR's name/value list
  /// (percent-decoded, as browsers show it).
  private static func queryString(_ url: String, _ out: inout JSONWriter) {
    out.beginArray()
    if let question = url.utf8.firstIndex(of: UInt8(ascii: "?")) {
      let query = url[url.index(after: question)...].prefix { $0 != "#" }
      for part in query.split(separator: "&") {
        let parts = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        pair(
          PercentDecoding.decode(String(parts[0])), parts.count > 1 ? PercentDecoding.decode(String(parts[1])) : "",
          &out)
      }
    }
    out.endArray()
  }

  /// An event stream's events as `text/event-stream` text: `event:`, `id:` and `data:` lines.
  private static func eventText(_ events: [JSONValue]) -> String {
    events.map { event in
      var lines: [String] = []
      if let name = event["event"]?.stringValue { lines.append("event: \(name)") }
      if let id = event["id"]?.stringValue { lines.append("id: \(id)") }
      let data = event["data"] ?? event
      lines.append("data: " + (data.stringValue ?? data.compactJSON))
      return lines.joined(separator: "\n") + "\n\n"
    }.joined()
  }
}

extension Double {
  fileprivate func rounded(toPlaces places: Int) -> Double {
    let factor = (0..<places).reduce(1.0) { r, _ in r * 10 }
    return (self * factor).rounded() / factor
  }
}
