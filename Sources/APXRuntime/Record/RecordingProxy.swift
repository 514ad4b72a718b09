public import APXCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Forwards requests to an upstream server and records each exchange into an HTTP archive
/// (`apx mock --record DIR --upstream URL`). The answer streams back as it arrives, so an
/// event stream flows live; its events are recorded with when each arrived. Secrets are masked
/// by the rule apx's own `--har` follows (`SecretMask.proxied`), in the request and the answer.
public struct RecordingProxy: Sendable {
  /// The upstream's origin and base path, without a trailing `/` (`https://api.example.com/v1`).
  public let upstream: String
  let session: HTTPSession
  let archive: RecordingArchive
  /// Where a failed forward is reported (the command's stderr).
  let report: @Sendable (String) -> Void
  /// This proxy's name in the `Via` field it adds (RFC 9110 section 7.6.3): a request that
  /// comes back carrying it went round in a loop (an upstream that is this proxy, directly or
  /// through others) and is refused rather than forwarded again without end.
  let via: String

  /// Header fields that concern one connection only (RFC 9110 section 7.6.1), and those that
  /// framed or encoded the bytes of one side: never passed on.
  static let hopByHop: Set<String> = [
    "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
    "transfer-encoding", "upgrade", "host", "content-length",
  ]

  /// Forwards through `session` to `upstream` (an http(s) URL; a trailing `/` is dropped),
  /// recording into `archive`.
  public init(
    upstream: String, session: HTTPSession, archive: RecordingArchive, report: @escaping @Sendable (String) -> Void
  ) {
    var base = upstream
    while base.hasSuffix("/") { base.removeLast() }
    self.upstream = base
    self.session = session
    self.archive = archive
    self.report = report
    self.via = "1.1 apx-mock-" + String(UInt64.random(in: 1...UInt64.max), radix: 36)
  }

  /// Whether `upstream` (an http(s) URL) names this machine's loopback at `port`, where the
  /// proxy itself listens: every request would come back to it. Another route to it (a name
  /// of this machine, another proxy) is caught by `Via` once a request comes back.
  public static func isOwnAddress(upstream: String, port: Int) -> Bool {
    let lower = upstream.lowercased()
    let https = lower.hasPrefix("https://")
    guard port != 0, https || lower.hasPrefix("http://") else { return false }
    let rest = upstream.dropFirst(https ? 8 : 7)
    let authority = rest.prefix { $0 != "/" }.split(separator: "@").last ?? ""
    var host = Substring(authority)
    var upstreamPort = https ? 443 : 80
    if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
      host = authority[..<colon]
      guard let given = Int(authority[authority.index(after: colon)...]) else { return false }
      upstreamPort = given
    }
    let name = String(host.lowercased().filter { $0 != "[" && $0 != "]" })
    let loopback = name == "localhost" || name.hasPrefix("127.") || name == "::1" || name == "0.0.0.0"
    return loopback && upstreamPort == port
  }

  /// Whether `headers` say the request has passed this proxy before.
  func looped(_ headers: [HeaderField]) -> Bool {
    let token = via.dropFirst(4)
    return headers.contains { field in
      field.name.lowercased() == "via"
        && field.value.split(separator: ",").contains { $0.trimmingWhitespace().hasSuffix(token) }
    }
  }

  /// The fields of `headers` a hop passes on: not hop-by-hop ones, nor those the `Connection`
  /// field names.
  static func endToEnd(_ headers: [HeaderField], dropping more: Set<String> = []) -> [HeaderField] {
    let named = Set(
      headers.filter { $0.name.lowercased() == "connection" }.flatMap { $0.value.split(separator: ",") }
        .map { String($0).trimmingWhitespace().lowercased() })
    return headers.filter {
      let name = $0.name.lowercased()
      return !hopByHop.contains(name) && !named.contains(name) && !more.contains(name)
    }
  }

  /// Sends `request` upstream and returns its answer, whose body streams as it arrives; the
  /// exchange is written to the archive when the body has ended. An upstream that cannot be
  /// reached is 502, a recording that could not be written 503; neither is recorded.
  public func forward(_ request: ProxiedRequest) async -> ProxiedResponse {
    let url = upstream + (request.target.hasPrefix("/") ? request.target : "/" + request.target)
    let mask = SecretMask.proxied(headers: request.headers, url: url, body: request.body)
    let shown = request.method + " " + mask.mask(request.target)
    if let failure = archive.failure {
      return Self.problem(503, "Service Unavailable", "apx mock stopped recording: \(failure.message)")
    }
    if looped(request.headers) {
      report("apx mock: loop: \(shown) came back from \(upstream), which forwards to this proxy; not forwarded")
      return Self.problem(
        508, "Loop Detected",
        "apx mock --record forwards to \(upstream), which sent the request back to it: give the real server as --upstream"
      )
    }
    // apx asks for the encodings it decodes, and passes the decoded bytes on.
    let headers = Self.endToEnd(request.headers, dropping: ["accept-encoding"]) + [HeaderField("Via", via)]
    let contentType = headers.first { $0.name.lowercased() == "content-type" }?.value
    let plan = HTTPRequestPlan(
      method: request.method, url: url, headers: headers,
      body: request.body.isEmpty ? .none : .bytes(request.body, contentType: contentType ?? "application/octet-stream"))
    let recorder = archive.begin()
    recorder.record(
      .requestSent(method: request.method, url: mask.mask(url), headers: mask.mask(plan.headersSent), attempt: 1))
    if let summary = RequestBodySummary(plan.body, mask: mask) { recorder.record(.requestBody(summary)) }
    recorder.record(.secrets(mask))
    let response: HTTPClientResponse
    do {
      response = try await session.send(plan, deadline: .distantFuture)
    } catch {
      archive.discard(recorder)
      let failure = NetworkErrorMapper.map(error, url: url, timeout: nil)
      let cause = failure.cause.map { ": " + mask.mask($0) } ?? ""
      report("apx mock: upstream failed: \(shown): \(mask.mask(failure.message))\(cause)")
      return Self.problem(
        502, "Bad Gateway", "apx mock could not forward \(shown): \(mask.mask(failure.message))\(cause)")
    }
    let answerHeaders = response.headers.map { HeaderField($0.name, $0.value) }
    let status = Int(response.status.code)
    recorder.record(
      .responseHead(
        status: status, version: "HTTP/\(response.version.major).\(response.version.minor)",
        headers: mask.mask(answerHeaders)))
    let type = MediaType.essence(response.headers.first(name: "content-type"))
    let archive = self.archive
    return ProxiedResponse(status: status, headers: Self.passedOn(answerHeaders)) { write in
      var parser = SSEParser()
      var text: [UInt8] = []
      var mask = mask
      defer {
        // A token in a JSON or form answer (`access_token`) is masked wherever the entry shows it.
        if !text.isEmpty {
          mask.addCredentialFields(ofBody: text, contentType: response.headers.first(name: "content-type"))
          recorder.record(.secrets(mask))
        }
        recorder.record(.finished(status: status, attempts: 1, failure: nil))
        // A failure ends the command (`RecordingArchive.failures`), which reports it.
        archive.end(recorder)
      }
      for try await buffer in response.body {
        recorder.record(.bodyChunk(BodyChunk(buffer)))
        if type == "text/event-stream" {
          var events: [SSEEvent] = []
          parser.feed(buffer.readableBytesView) { events.append($0) }
          for event in events { recorder.record(.message(event.jsonValue)) }
        } else if Self.mayHoldCredentials(type), text.count < HARRecorder.bodyLimit {
          text += buffer.readableBytesView
        }
        try await write(Array(buffer.readableBytesView))
      }
    }
  }

  /// The answer's fields for the client. The body reaches it decoded, so an encoded answer's
  /// `Content-Encoding` and `Content-Length` go; an unencoded one keeps its length, which is all
  /// a HEAD answer says of its body.
  static func passedOn(_ answerHeaders: [HeaderField]) -> [HeaderField] {
    let fields = endToEnd(answerHeaders, dropping: ["content-encoding"])
    guard !answerHeaders.contains(where: { $0.name.lowercased() == "content-encoding" }),
      let length = answerHeaders.first(where: { $0.name.lowercased() == "content-length" })
    else { return fields }
    return fields + [length]
  }

  /// Answer types whose credential fields are read: JSON, a form (a token endpoint's legacy
  /// answer), and plain text, which a server may send JSON as.
  static func mayHoldCredentials(_ type: String) -> Bool {
    type == "application/json" || type.hasSuffix("+json") || type == "application/x-www-form-urlencoded"
      || type == "text/plain"
  }

  /// An `application/problem+json` answer.
  static func problem(_ status: Int, _ title: String, _ detail: String) -> ProxiedResponse {
    let body = JSONValue.object([
      JSONMember("type", .string("about:blank")), JSONMember("title", .string(title)),
      JSONMember("status", .int(status)), JSONMember("detail", .string(detail)),
    ])
    return ProxiedResponse(
      status: status, headers: [HeaderField("Content-Type", "application/problem+json")],
      bytes: JSONPrinter(style: .compact).bytes(body))
  }
}
