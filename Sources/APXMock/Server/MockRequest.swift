import APXCore

/// One request as the mock sees it, independent of the HTTP server that received it.
struct MockRequest: Sendable {
  var method: String
  /// The path as sent (percent-encoded), without the query.
  var path: String
  /// Query parameters in order, decoded.
  var query: [(name: String, value: String)]

  /// `a=1&b=x%20y` as decoded pairs (`+` is a space, as forms send it).
  static func queryPairs(_ text: String?) -> [(name: String, value: String)] {
    (text ?? "").split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let decode = { (s: Substring) in PercentDecoding.decode(String(s).replacing("+", with: " ")) }
      return (decode(parts[0]), parts.count == 2 ? decode(parts[1]) : "")
    }
  }
  /// Header fields with lower-case names.
  var headers: [(name: String, value: String)]
  var body: [UInt8]

  /// The first value of header `name` (lower-case).
  func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

  /// The subprotocols a WebSocket handshake offers, in its order.
  var offeredSubprotocols: [String] {
    headers.filter { $0.name == "sec-websocket-protocol" }.flatMap { $0.value.split(separator: ",") }
      .map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
  }

  func queryValues(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }

  /// The value of cookie `name` from the `Cookie` header.
  func cookie(_ name: String) -> String? {
    for field in headers where field.name == "cookie" {
      for pair in field.value.split(separator: ";") {
        let parts = pair.trimmingWhitespace.split(separator: "=", maxSplits: 1)
        if parts.count == 2, parts[0] == name { return String(parts[1]) }
      }
    }
    return nil
  }

  /// The body parsed as JSON; nil when empty or not JSON.
  var jsonBody: JSONValue? {
    body.isEmpty ? nil : try? JSONParser.parse(body)
  }

  /// A non-JSON body as the log shows it: a form's credential fields (`client_secret`,
  /// `refresh_token`, `password`) as `***`.
  var shownBody: String { Self.maskedForm(String(decoding: body, as: UTF8.self), header("content-type")) }

  /// `text` with a form's credential fields `***` when `contentType` is a form's.
  static func maskedForm(_ text: String, _ contentType: String?) -> String {
    guard contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
      return text
    }
    return text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
      let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
      let decoded = PercentDecoding.decode(name.replacing("+", with: " "))
      return CredentialParams.isCredential(decoded) ? name + "=***" : String(pair)
    }.joined(separator: "&")
  }

  /// The most of a body the request log keeps: a 200 MB upload is logged by its size and its
  /// first bytes, so the 10,000 entries stay within `RequestLog.byteLimit`.
  static let loggedBodyLimit = 16 * 1024
  /// The largest JSON body parsed for the log (to mask its credential members, then cut it).
  static let parsedBodyLimit = 1 << 20

  /// The log's members for the body: none when empty; a JSON body as JSON with credential
  /// members `***` at any depth; a form's credential fields `***`. One over `loggedBodyLimit`
  /// is its first bytes as text (a JSON one over `parsedBodyLimit` none: it cannot be masked
  /// unparsed), with `body_bytes` and `body_truncated`.
  var loggedBody: [JSONMember] {
    guard !body.isEmpty else { return [] }
    let json = body.count <= Self.parsedBodyLimit ? jsonBody.map(CredentialMembers.masked) : nil
    if body.count <= Self.loggedBodyLimit {
      return [JSONMember("body", json ?? .string(shownBody))]
    }
    let text: String
    if let json {
      text = String(decoding: Array(json.compactJSON.utf8.prefix(Self.loggedBodyLimit)), as: UTF8.self)
    } else if body.count > Self.parsedBodyLimit,
      let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
      first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    {
      text = ""
    } else {
      text = String(decoding: body.prefix(Self.loggedBodyLimit), as: UTF8.self)
    }
    return [
      JSONMember("body", .string(Self.maskedForm(text, header("content-type")))),
      JSONMember("body_bytes", .int(body.count)), JSONMember("body_truncated", .bool(true)),
    ]
  }

  /// What `GET /__apx/requests` lists for this request. Credentials (the values of headers and
  /// query parameters that carry them, by apx's rule for `-v`) are `***`: the list says a
  /// request carried one, never what it was.
  func logEntry(endpoint: String?, status: Int, fault: String?) -> JSONValue {
    var members = [
      JSONMember("method", .string(method)), JSONMember("path", .string(path)),
      JSONMember(
        "query",
        .object(query.map { JSONMember($0.name, .string(CredentialParams.isCredential($0.name) ? "***" : $0.value)) })),
      JSONMember(
        "headers",
        .object(
          headers.map { JSONMember($0.name, .string(CredentialHeaders.isCredential($0.name) ? "***" : $0.value)) })),
    ]
    members += loggedBody
    members.append(JSONMember("endpoint", endpoint.map(JSONValue.string) ?? .null))
    members.append(JSONMember("status", .int(status)))
    if let fault { members.append(JSONMember("fault", .string(fault))) }
    return .object(members)
  }
}

/// One server-sent event of a mocked stream.
struct MockEvent: Sendable {
  var id: Int
  var type: String?
  var data: String

  var text: String {
    var out = "id: \(id)\n"
    if let type { out += "event: \(type)\n" }
    for line in data.split(separator: "\n", omittingEmptySubsequences: false) { out += "data: \(line)\n" }
    return out + "\n"
  }
}

/// What the mock answers.
struct MockAnswer: Sendable {
  enum Body: Sendable {
    case bytes([UInt8])
    /// An event stream: the events after `Last-Event-ID`, dropped early after `dropEvery` of them.
    case events([MockEvent], dropEvery: Int, mode: DropMode)
  }

  var status: Int
  var headers: [(name: String, value: String)] = []
  var body: Body = .bytes([])

  static func json(_ status: Int, _ value: JSONValue, contentType: String = "application/json") -> MockAnswer {
    MockAnswer(
      status: status, headers: [("content-type", contentType)],
      body: .bytes(JSONPrinter(style: .compact).bytes(value)))
  }

  /// An RFC 9457 problem: `application/problem+json` naming the field at fault when there is one.
  static func problem(_ status: Int, title: String, detail: String, field: String? = nil) -> MockAnswer {
    var members = [
      JSONMember("type", .string("about:blank")), JSONMember("title", .string(title)),
      JSONMember("status", .int(status)), JSONMember("detail", .string(detail)),
    ]
    if let field { members.append(JSONMember("field", .string(field))) }
    return json(status, .object(members), contentType: "application/problem+json")
  }
}
