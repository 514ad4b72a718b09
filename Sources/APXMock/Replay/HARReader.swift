public import APXCore

/// Reads the exchanges of an HTTP archive (HAR 1.2): the ones apx writes with `--har`, and the
/// ones browsers' devtools, Insomnia and Postman export.
public enum HARReader {
  /// Headers that described the recorded bytes on the wire, not the answer a replay sends.
  static let wireHeaders: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "connection"]

  /// The exchanges of `bytes` (a HAR document), in the archive's order; `name` names the
  /// archive in each exchange's `source`. Entries without an answer (`status` 0: the request
  /// failed) are skipped.
  /// - Throws: `.invalidDefinition` when the bytes are not JSON or not a HAR log.
  public static func exchanges(_ bytes: [UInt8], name: String) throws(APXError) -> [HARExchange] {
    let document: JSONValue
    do {
      document = try JSONParser.parse(bytes)
    } catch {
      throw APXError(.invalidDefinition, "\(name) is not JSON: \(error)", hint: "give an HTTP archive (.har)")
    }
    guard let entries = document["log"]?["entries"]?.arrayValue else {
      throw APXError(
        .invalidDefinition, "\(name) is not an HTTP archive: it has no log.entries",
        hint: "record one with apx call --har FILE, apx mock --record, or a browser's devtools (Save all as HAR)")
    }
    var out: [HARExchange] = []
    for (index, entry) in entries.enumerated() {
      let source = "\(name)#\(index)"
      guard let request = entry["request"], let response = entry["response"],
        let method = request["method"]?.stringValue, let url = request["url"]?.stringValue
      else {
        throw APXError(.invalidDefinition, "\(source) has no request method and URL, or no response")
      }
      // 0 is a request that got no answer (browsers record failed ones so). HTTPTypes traps on
      // a status outside 100-599: any other is refused here, before anything is served.
      let status = response["status"]?.intValue
      if status == 0 { continue }
      guard let status, (100...599).contains(status) else {
        throw APXError(
          .invalidDefinition,
          "\(source): response.status \(response["status"]?.compactJSON ?? "(missing)") is not an HTTP status (100 to 599)",
          hint: "correct or remove that entry of the archive")
      }
      let (path, query) = Self.pathAndQuery(of: url)
      var body: [UInt8] = []
      if let text = response["content"]?["text"]?.stringValue {
        if response["content"]?["encoding"]?.stringValue == "base64" {
          guard let decoded = Base64.decode(text) else {
            throw APXError(.invalidDefinition, "\(source): response.content.text is not valid base64")
          }
          body = decoded
        } else {
          body = Array(text.utf8)
        }
      }
      let recorded = (response["headers"]?.arrayValue ?? []).compactMap { header -> HeaderField? in
        guard let name = header["name"]?.stringValue, let value = header["value"]?.stringValue else { return nil }
        return HeaderField(name, value)
      }
      // A HEAD answer has no body to measure: its length is the one thing it says of the body,
      // and it stands when the body was not encoded.
      let keepsLength =
        method.uppercased() == "HEAD" && !recorded.contains { $0.name.lowercased() == "content-encoding" }
      let headers = recorded.filter { field in
        let name = field.name.lowercased()
        return !field.name.hasPrefix(":")
          && (!Self.wireHeaders.contains(name) || (keepsLength && name == "content-length"))
      }
      var exchange = HARExchange(
        method: method.uppercased(), path: path, query: query,
        requestBody: request["postData"]?["text"]?.stringValue.map { Array($0.utf8) }, status: status,
        headers: headers, body: body, source: source)
      exchange.eventTimes = try Self.eventTimes(entry["_apx"]?["events"]?.arrayValue ?? [], source: source)
      exchange.grpcMessages = entry["_apx"]?["messages"]?.arrayValue
      exchange.grpcTrailers = (entry["_apx"]?["trailers"]?.arrayValue ?? []).compactMap { field in
        guard let name = field["name"]?.stringValue, let value = field["value"]?.stringValue else { return nil }
        return HeaderField(name, value)
      }
      out.append(exchange)
    }
    return out
  }

  /// The most an event may be due after the answer's head: a day, in milliseconds.
  public static let latestEventTime: Double = 86_400_000

  /// When each recorded event arrived (`_apx.events[].time`, milliseconds after the head).
  /// - Throws: `.invalidDefinition` for a time that is negative or past `latestEventTime`:
  ///   replayed as recorded, it would hold the stream open for good.
  static func eventTimes(_ events: [JSONValue], source: String) throws(APXError) -> [Double] {
    var times: [Double] = []
    for (index, event) in events.enumerated() {
      guard let time = event["time"]?.doubleValue else { continue }
      guard time >= 0, time <= latestEventTime else {
        throw APXError(
          .invalidDefinition,
          "\(source): _apx.events[\(index)].time \(time) is not from 0 to \(Int(latestEventTime)) ms (a day)",
          hint: "correct or remove that event's time")
      }
      times.append(time)
    }
    return times
  }

  /// The serialized `FileDescriptorSet`s an archive carries (`log._apx.descriptorSets`, base64),
  /// which `apx mock --record` writes for the gRPC calls it records; none when the bytes are not
  /// such an archive.
  public static func descriptorSets(_ bytes: [UInt8]) -> [[UInt8]] {
    guard let document = try? JSONParser.parse(bytes) else { return [] }
    return (document["log"]?["_apx"]?["descriptorSets"]?.arrayValue ?? []).compactMap {
      $0.stringValue.flatMap(Base64.decode)
    }
  }

  /// The percent-decoded path and query pairs of an absolute or origin-form URL.
  public static func pathAndQuery(of url: String) -> (path: String, query: [HARExchange.QueryPair]) {
    var rest = Substring(url)
    if let scheme = rest.firstRange(of: "://") {
      rest = rest[scheme.upperBound...]
      rest = rest.firstIndex(where: { $0 == "/" || $0 == "?" }).map { rest[$0...] } ?? ""
    }
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    let question = rest.firstIndex(of: "?")
    let path = question.map { rest[..<$0] } ?? rest
    var query: [HARExchange.QueryPair] = []
    if let question {
      for part in rest[rest.index(after: question)...].split(separator: "&") where !part.isEmpty {
        let equals = part.firstIndex(of: "=")
        let name = equals.map { part[..<$0] } ?? part
        let value = equals.map { part[part.index(after: $0)...] } ?? ""
        query.append(HARExchange.QueryPair(decode(name, plusIsSpace: true), decode(value, plusIsSpace: true)))
      }
    }
    return (path.isEmpty ? "/" : decode(path, plusIsSpace: false), query)
  }

  /// `%XX` decoded (and `+` as a space in a query); malformed escapes are kept as they are.
  static func decode(_ text: Substring, plusIsSpace: Bool) -> String {
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "%"), utf8.count >= 2, let high = hex(utf8[utf8.startIndex]),
        let low = hex(utf8[utf8.startIndex + 1])
      {
        bytes.append(high << 4 | low)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hex(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
