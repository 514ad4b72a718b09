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
/// trailers in an `_apx` field. Headers and URLs arrive masked (as `-v` shows them), request
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
    /// The attempt's secrets: masked in the recorded answer too.
    var mask = SecretMask()
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
        guard exchange != nil else { return }
        exchange!.bodySize += chunk.count
        let room = Self.bodyLimit - exchange!.body.count
        if room > 0 { chunk.withUnsafeBytes { exchange!.body.append(contentsOf: $0.prefix(room)) } }
      }
    case .message(let value):
      let now = ContinuousClock.now
      current.withLock { exchange in
        guard exchange != nil else { return }
        exchange!.messages.append(value)
        exchange!.messageTimes.append(Self.milliseconds(now - (exchange!.headInstant ?? exchange!.startInstant)))
      }
    case .trailers(let fields):
      current.withLock { $0?.trailers = fields }
    case .finished:
      if let finished = current.withLock({ $0.take() }) { add(finished) }
    default:
      break
    }
  }

  private func add(_ exchange: Exchange) {
    log.add(Self.entry(exchange), started: exchange.started)
  }

  private static func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return (Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded(toPlaces: 3)
  }

  /// The entry's JSON text, written straight from the exchange as it prints in the archive.
  private static func entry(_ x: Exchange) -> [UInt8] {
    let end = ContinuousClock.now
    let wait = x.headInstant.map { milliseconds($0 - x.startInstant) } ?? milliseconds(end - x.startInstant)
    let receive = x.headInstant.map { milliseconds(end - $0) } ?? 0
    let contentType = header("content-type", in: x.responseHeaders) ?? ""
    let isGRPC = contentType.lowercased().hasPrefix("application/grpc")
    var out = JSONWriter(style: .pretty, depth: HARLog.entryDepth, capacity: 2048 + x.body.count)
    out.beginObject()
    out.member("startedDateTime", UTCTimestamp.iso8601(secondsSince1970: x.started))
    out.key("time")
    out.number(String(wait + receive))

    out.key("request")
    out.beginObject()
    out.member("method", x.method)
    out.member("url", x.url)
    out.member("httpVersion", x.version)
    emptyCookies(&out)
    headers(x.requestHeaders, &out)
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
    emptyCookies(&out)
    headers(x.responseHeaders, &out)
    content(x, contentType: contentType, isGRPC: isGRPC, &out)
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
    if isGRPC {
      // HAR has no place for gRPC messages: they go, as apx prints them, in a custom field
      // (HAR 1.2 allows fields that start with an underscore).
      out.key("_apx")
      out.beginObject()
      out.key("messages")
      out.beginArray()
      for message in x.messages { out.value(masked(message, x.mask)) }
      out.endArray()
      headers(x.trailers, named: "trailers", &out)
      out.endObject()
    } else if !x.messages.isEmpty {
      // When each event arrived, so that a replay can space them as recorded.
      out.key("_apx")
      out.beginObject()
      out.key("events")
      eventTimes(x, &out)
      out.endObject()
    }
    out.endObject()
    return out.bytes
  }

  /// The value of the first field named `name` (lower case), whatever the case of its name.
  private static func header(_ name: String, in fields: [HeaderField]) -> String? {
    // Comparing lengths first spares lower-casing the other names.
    fields.first { $0.name.utf8.count == name.utf8.count && $0.name.lowercased() == name }?.value
  }

  /// `"content"`: the answer's size, type and text (masked), base64 when it is not UTF-8.
  private static func content(_ x: Exchange, contentType: String, isGRPC: Bool, _ out: inout JSONWriter) {
    out.key("content")
    out.beginObject()
    out.member("size", x.bodySize)
    out.member("mimeType", contentType.isEmpty ? "x-unknown" : contentType)
    // An event stream's own bytes when they were recorded (a proxy sees them), else its events.
    if !x.messages.isEmpty, !isGRPC, x.body.isEmpty {
      out.member("text", x.mask.mask(eventText(x.messages)))
    } else if !x.body.isEmpty {
      if !x.mask.masksText, isASCII(x.body) {
        // Nothing to mask and valid UTF-8 as it is: escaped straight from the bytes.
        out.key("text")
        out.string(utf8: x.body)
      } else if let text = String(validating: x.body, as: UTF8.self) {
        out.member("text", x.mask.mask(text))
      } else {
        out.member("text", Data(x.body).base64EncodedString())
        out.member("encoding", "base64")
      }
      if x.bodySize > x.body.count {
        out.member("comment", "the first \(x.body.count) of \(x.bodySize) bytes")
      }
    }
    out.endObject()
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
  private static func masked(_ value: JSONValue, _ mask: SecretMask) -> JSONValue {
    switch value {
    case .string(let s): .string(mask.mask(s))
    case .array(let items): .array(items.map { masked($0, mask) })
    case .object(let members): .object(members.map { JSONMember($0.key, masked($0.value, mask)) })
    default: value
    }
  }

  /// `[{"time": MS, "id": ..., "event": ...}]`: each event's arrival, its id and type when set.
  private static func eventTimes(_ x: Exchange, _ out: inout JSONWriter) {
    out.beginArray()
    for (event, time) in zip(x.messages, x.messageTimes) {
      out.beginObject()
      out.key("time")
      out.number(String(time))
      if let id = event["id"]?.stringValue { out.member("id", x.mask.mask(id)) }
      if let type = event["event"]?.stringValue { out.member("event", type) }
      out.endObject()
    }
    out.endArray()
  }

  /// `"cookies": []`: cookies are in the `Cookie` and `Set-Cookie` headers.
  private static func emptyCookies(_ out: inout JSONWriter) {
    out.key("cookies")
    out.beginArray()
    out.endArray()
  }

  /// `"headers": [{"name": ..., "value": ...}, ...]`, or the member `name` so laid out.
  private static func headers(_ fields: [HeaderField], named name: String = "headers", _ out: inout JSONWriter) {
    out.key(name)
    out.beginArray()
    for field in fields {
      out.beginObject()
      out.member("name", field.name)
      out.member("value", field.value)
      out.endObject()
    }
    out.endArray()
  }

  /// `"queryString"`: the URL's query as HAR's name/value list (percent-decoded, as browsers
  /// show it).
  private static func queryString(_ url: String, _ out: inout JSONWriter) {
    out.key("queryString")
    out.beginArray()
    if let question = url.utf8.firstIndex(of: UInt8(ascii: "?")) {
      let query = url[url.index(after: question)...].prefix { $0 != "#" }
      for pair in query.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        out.beginObject()
        out.member("name", PercentDecoding.decode(String(parts[0])))
        out.member("value", parts.count > 1 ? PercentDecoding.decode(String(parts[1])) : "")
        out.endObject()
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
