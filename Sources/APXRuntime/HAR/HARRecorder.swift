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
        let previous = exchange
        exchange = Exchange(method: method, url: url, requestHeaders: headers)
        return previous
      }
      finished.map(add)
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
      current.withLock { exchange -> Exchange? in
        defer { exchange = nil }
        return exchange
      }.map(add)
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

  private static func entry(_ x: Exchange) -> JSONValue {
    let end = ContinuousClock.now
    let wait = x.headInstant.map { milliseconds($0 - x.startInstant) } ?? milliseconds(end - x.startInstant)
    let receive = x.headInstant.map { milliseconds(end - $0) } ?? 0
    let contentType = x.responseHeaders.first { $0.name.lowercased() == "content-type" }?.value ?? ""
    var request: [JSONMember] = [
      JSONMember("method", .string(x.method)), JSONMember("url", .string(x.url)),
      JSONMember("httpVersion", .string(x.version)), JSONMember("cookies", .array([])),
      JSONMember("headers", headers(x.requestHeaders)), JSONMember("queryString", queryString(x.url)),
      JSONMember("headersSize", .int(-1)),
      JSONMember("bodySize", .int(x.requestBody?.size ?? (x.requestBody == nil ? 0 : -1))),
    ]
    if let body = x.requestBody {
      request.append(
        JSONMember(
          "postData",
          .object([JSONMember("mimeType", .string(body.mimeType)), JSONMember("text", .string(body.text ?? ""))])
        ))
    }
    var content: [JSONMember] = [
      JSONMember("size", .int(x.bodySize)),
      JSONMember("mimeType", .string(contentType.isEmpty ? "x-unknown" : contentType)),
    ]
    let isGRPC = contentType.lowercased().hasPrefix("application/grpc")
    // An event stream's own bytes when they were recorded (a proxy sees them), else its events.
    if !x.messages.isEmpty, !isGRPC, x.body.isEmpty {
      content.append(JSONMember("text", .string(x.mask.mask(eventText(x.messages)))))
    } else if !x.body.isEmpty {
      if let text = String(validating: x.body, as: UTF8.self) {
        content.append(JSONMember("text", .string(x.mask.mask(text))))
      } else {
        content.append(JSONMember("text", .string(Data(x.body).base64EncodedString())))
        content.append(JSONMember("encoding", .string("base64")))
      }
      if x.bodySize > x.body.count {
        content.append(JSONMember("comment", .string("the first \(x.body.count) of \(x.bodySize) bytes")))
      }
    }
    let location = x.responseHeaders.first { $0.name.lowercased() == "location" }?.value ?? ""
    let response: [JSONMember] = [
      JSONMember("status", .int(x.status)),
      JSONMember("statusText", .string(x.status == 0 ? "" : HTTPResponseStatus(statusCode: x.status).reasonPhrase)),
      JSONMember("httpVersion", .string(x.version)), JSONMember("cookies", .array([])),
      JSONMember("headers", headers(x.responseHeaders)), JSONMember("content", .object(content)),
      JSONMember("redirectURL", .string(location)), JSONMember("headersSize", .int(-1)),
      JSONMember("bodySize", .int(x.status == 0 ? -1 : x.bodySize)),
    ]
    var members: [JSONMember] = [
      JSONMember("startedDateTime", .string(Date(timeIntervalSince1970: x.started).formatted(Self.iso8601))),
      JSONMember("time", .number(String(wait + receive))), JSONMember("request", .object(request)),
      JSONMember("response", .object(response)), JSONMember("cache", .object([])),
      JSONMember(
        "timings",
        .object([
          JSONMember("send", .int(0)), JSONMember("wait", .number(String(wait))),
          JSONMember("receive", .number(String(receive))),
        ])),
    ]
    if isGRPC {
      // HAR has no place for gRPC messages: they go, as apx prints them, in a custom field
      // (HAR 1.2 allows fields that start with an underscore).
      members.append(
        JSONMember(
          "_apx",
          .object([
            JSONMember("messages", .array(x.messages.map { masked($0, x.mask) })),
            JSONMember("trailers", headers(x.trailers)),
          ])))
    } else if !x.messages.isEmpty {
      // When each event arrived, so that a replay can space them as recorded.
      members.append(JSONMember("_apx", .object([JSONMember("events", eventTimes(x))])))
    }
    return .object(members)
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
  private static func eventTimes(_ x: Exchange) -> JSONValue {
    .array(
      zip(x.messages, x.messageTimes).map { event, time in
        var members = [JSONMember("time", .number(String(time)))]
        if let id = event["id"]?.stringValue { members.append(JSONMember("id", .string(x.mask.mask(id)))) }
        if let type = event["event"]?.stringValue { members.append(JSONMember("event", .string(type))) }
        return .object(members)
      })
  }

  private static let iso8601 = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

  private static func headers(_ fields: [HeaderField]) -> JSONValue {
    .array(fields.map { .object([JSONMember("name", .string($0.name)), JSONMember("value", .string($0.value))]) })
  }

  /// The URL's query as HAR's name/value list (percent-decoded, as browsers show it).
  private static func queryString(_ url: String) -> JSONValue {
    guard let question = url.firstIndex(of: "?") else { return .array([]) }
    let query = url[url.index(after: question)...].prefix { $0 != "#" }
    return .array(
      query.split(separator: "&").map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let decode = { (text: Substring) in PercentDecoding.decode(String(text)) }
        return .object([
          JSONMember("name", .string(decode(parts[0]))),
          JSONMember("value", .string(parts.count > 1 ? decode(parts[1]) : "")),
        ])
      })
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
