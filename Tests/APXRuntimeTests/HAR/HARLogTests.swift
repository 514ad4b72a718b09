import APXCore
import Testing

@testable import APXRuntime

@Suite struct HARLogTests {
  /// The entries' `comment`s of an archive, in the order it lists them.
  static func comments(_ archive: [UInt8]) throws -> [String] {
    let value = try JSONParser.parse(archive)
    return value["log"]?["entries"]?.arrayValue?.map { $0["comment"]?.stringValue ?? "" } ?? []
  }

  static func entry(_ comment: String) -> [UInt8] {
    var out = JSONWriter(style: .pretty, depth: HARLog.entryDepth)
    out.beginObject()
    out.member("comment", comment)
    out.endObject()
    return out.bytes
  }

  @Test func entriesAreListedByWhenTheyBeganAndTiesInTheOrderTheyEnded() throws {
    let log = HARLog()
    log.add(Self.entry("third"), started: 30)
    log.add(Self.entry("first"), started: 10)
    log.add(Self.entry("second, ended first"), started: 20)
    log.add(Self.entry("second, ended next"), started: 20)
    log.add(Self.entry("fourth"), started: 40)
    #expect(
      try Self.comments(log.json(creatorVersion: "1"))
        == ["first", "second, ended first", "second, ended next", "third", "fourth"])
  }

  /// The file is the pretty printing of its own value: entries written as calls end line up
  /// with the rest, custom members come after them, and it ends with a newline.
  @Test func theArchiveIsPrettyJSONAsJSONPrinterLaysItOut() throws {
    let log = HARLog()
    let recorder = log.recorder()
    let url = "http://127.0.0.1:1/a%20b?q=x%26y&flag&empty=#frag"
    recorder.record(.requestSent(method: "POST", url: url, headers: [HeaderField("Accept", "*/*")], attempt: 1))
    let body = RequestBodySummary(
      .bytes(Array(#"{"k":"v"}"#.utf8), contentType: "application/json"), mask: SecretMask())
    recorder.record(.requestBody(try #require(body)))
    recorder.record(
      .responseHead(status: 201, version: "HTTP/1.1", headers: [HeaderField("Content-Type", "text/plain")]))
    recorder.record(.bodyChunk(BodyChunk(Array("line\n\"two\"".utf8))))
    recorder.record(.finished(status: 201, attempts: 1, failure: nil))
    recorder.record(.requestSent(method: "GET", url: "http://127.0.0.1:1/empty", headers: [], attempt: 1))
    recorder.record(.finished(status: nil, attempts: 1, failure: nil))
    log.setCustom("_apx", .object([JSONMember("descriptorSets", .array([.string("AA==")]))]))

    let archive = log.json(creatorVersion: "9.9")
    let value = try JSONParser.parse(archive)
    #expect(archive == JSONPrinter(style: .pretty).bytes(value) + [0x0A])
    let entries = try #require(value["log"]?["entries"]?.arrayValue)
    #expect(entries.count == 2)
    #expect(value["log"]?["creator"]?["version"]?.stringValue == "9.9")
    #expect(value["log"]?.objectMembers?.last?.key == "_apx")
    let request = try #require(entries.first?["request"])
    #expect(request["postData"]?["text"]?.stringValue == #"{"k":"v"}"#)
    #expect(
      request["queryString"]
        == .array([
          .object([JSONMember("name", .string("q")), JSONMember("value", .string("x&y"))]),
          .object([JSONMember("name", .string("flag")), JSONMember("value", .string(""))]),
          .object([JSONMember("name", .string("empty")), JSONMember("value", .string(""))]),
        ]))
    #expect(entries.first?["response"]?["content"]?["text"]?.stringValue == "line\n\"two\"")
    #expect(entries.first?["response"]?["statusText"]?.stringValue == "Created")
    #expect(entries.last?["response"]?["bodySize"]?.intValue == -1)
    let started = try #require(entries.first?["startedDateTime"]?.stringValue)
    #expect(started.count == 24 && started.hasSuffix("Z"), "\(started)")
  }

  @Test func anEmptyArchiveListsNoEntries() throws {
    let archive = HARLog().json(creatorVersion: "1")
    #expect(String(decoding: archive, as: UTF8.self).contains("\"entries\": []"))
    #expect(archive == JSONPrinter(style: .pretty).bytes(try JSONParser.parse(archive)) + [0x0A])
  }

  /// Entries larger than a chunk, and more than a chunk holds, are listed whole and in order.
  @Test func entriesSpreadOverSeveralChunksAreListedWhole() throws {
    let log = HARLog()
    let large = String(repeating: "x", count: HARLog.chunkSize + 10)
    let filler = String(repeating: "y", count: HARLog.chunkSize / 3)
    var expected: [String] = []
    for n in 0..<8 {
      let comment = n == 3 ? large : "\(n) " + filler
      log.add(Self.entry(comment), started: Double(n))
      expected.append(comment)
    }
    let archive = log.json(creatorVersion: "1")
    #expect(try Self.comments(archive) == expected)
    #expect(archive == JSONPrinter(style: .pretty).bytes(try JSONParser.parse(archive)) + [0x0A])
  }

  /// An answer's text is kept as it came when nothing is masked, masked when a secret is known,
  /// and base64 when it is not UTF-8.
  @Test func answerTextsAreKeptMaskedOrBase64() throws {
    let log = HARLog()
    let recorder = log.recorder()
    let bodies: [([UInt8], SecretMask)] = [
      (Array("plain \"ascii\"\n".utf8), SecretMask()),
      (Array("café \u{202E} ok".utf8), SecretMask()),
      (Array(#"{"token":"s3cret-value"}"#.utf8), SecretMask(secrets: ["s3cret-value"])),
      ([0xFF, 0x00, 0x41], SecretMask()),
    ]
    for (body, mask) in bodies {
      recorder.record(.requestSent(method: "GET", url: "http://127.0.0.1:1/x", headers: [], attempt: 1))
      recorder.record(.secrets(mask))
      recorder.record(.responseHead(status: 200, version: "HTTP/1.1", headers: []))
      recorder.record(.bodyChunk(BodyChunk(body)))
      recorder.record(.finished(status: 200, attempts: 1, failure: nil))
    }
    let archive = log.json(creatorVersion: "1")
    let value = try JSONParser.parse(archive)
    #expect(archive == JSONPrinter(style: .pretty).bytes(value) + [0x0A])
    let contents = try #require(value["log"]?["entries"]?.arrayValue).map { $0["response"]?["content"] }
    #expect(
      contents.map { $0?["text"]?.stringValue } == [
        "plain \"ascii\"\n", "café \u{202E} ok", #"{"token":"***"}"#, "/wBB",
      ])
    #expect(contents.map { $0?["encoding"]?.stringValue } == [nil, nil, nil, "base64"])
  }

  /// A gRPC call's messages and trailers, and an event stream's events, go in the `_apx` field,
  /// laid out as the rest of the archive.
  @Test func streamsAndGRPCMessagesAreLaidOutAsTheRest() throws {
    let log = HARLog()
    let recorder = log.recorder()
    recorder.record(.requestSent(method: "POST", url: "http://127.0.0.1:1/pkg.Svc/Get", headers: [], attempt: 1))
    recorder.record(
      .responseHead(status: 200, version: "HTTP/2.0", headers: [HeaderField("content-type", "application/grpc")]))
    recorder.record(.message(.object([JSONMember("id", .number("1")), JSONMember("tags", .array([]))])))
    recorder.record(.message(.object([])))
    recorder.record(.trailers([HeaderField("grpc-status", "0")]))
    recorder.record(.finished(status: 200, attempts: 1, failure: nil))
    recorder.record(
      .requestSent(
        method: "GET", url: "http://127.0.0.1:1/events?n=2", headers: [HeaderField("Accept", "text/event-stream")],
        attempt: 1))
    recorder.record(
      .responseHead(status: 200, version: "HTTP/1.1", headers: [HeaderField("Content-Type", "text/event-stream")]))
    recorder.record(
      .message(
        .object([
          JSONMember("event", .string("tick")), JSONMember("id", .string("7")), JSONMember("data", .string("a")),
        ])))
    recorder.record(.message(.object([JSONMember("data", .object([JSONMember("k", .number("2"))]))])))
    recorder.record(.finished(status: 200, attempts: 1, failure: nil))

    let archive = log.json(creatorVersion: "1")
    let value = try JSONParser.parse(archive)
    #expect(archive == JSONPrinter(style: .pretty).bytes(value) + [0x0A])
    let entries = try #require(value["log"]?["entries"]?.arrayValue)
    #expect(entries.count == 2)
    #expect(entries[0]["_apx"]?["messages"]?.arrayValue?.count == 2)
    #expect(entries[0]["_apx"]?["trailers"]?.arrayValue?.first?["value"]?.stringValue == "0")
    #expect(entries[1]["_apx"]?["events"]?.arrayValue?.count == 2)
    #expect(
      entries[1]["response"]?["content"]?["text"]?.stringValue == "event: tick\nid: 7\ndata: a\n\ndata: {\"k\":2}\n\n")
    #expect(entries[1]["request"]?["queryString"]?.arrayValue?.count == 1)
  }
}
