import APXCore
import APXMock
import Testing

@Suite("HAR replay")
struct HARReplayTests {
  static func entry(
    _ method: String, _ url: String, body: String? = nil, status: Int = 200, text: String = "{}",
    base64: Bool = false, headers: String = #"{"name": "Content-Type", "value": "application/json"}"#
  ) -> String {
    let post =
      body.map { #", "postData": {"mimeType": "application/json", "text": \#(JSONValue.string($0).compactJSON)}"# }
      ?? ""
    return """
      {"request": {"method": "\(method)", "url": "\(url)", "headers": []\(post)},
       "response": {"status": \(status), "headers": [\(headers)],
                    "content": {"mimeType": "application/json", "text": \(JSONValue.string(text).compactJSON)\(base64 ? #", "encoding": "base64""# : "")}}}
      """
  }

  static func archive(_ entries: [String]) -> [UInt8] {
    Array(#"{"log": {"version": "1.2", "entries": [\#(entries.joined(separator: ","))]}}"#.utf8)
  }

  static func replay(_ entries: [String]) throws -> HARReplay {
    HARReplay(try HARReader.exchanges(archive(entries), name: "t.har"))
  }

  static func body(_ answer: HARReplay.Answer) -> String? {
    guard case .recorded(let e) = answer else { return nil }
    return String(decoding: e.body, as: UTF8.self)
  }

  @Test func readsEntriesDroppingWireHeadersAndFailedRequests() throws {
    let exchanges = try HARReader.exchanges(
      Self.archive([
        Self.entry(
          "get", "https://api.example.com/a%20b?x=1&y=two+words#frag", text: "aGk=", base64: true,
          headers: #"{"name": "Content-Length", "value": "2"}, {"name": "X-Kept", "value": "1"}"#),
        Self.entry("GET", "https://api.example.com/down", status: 0),
      ]), name: "t.har")
    #expect(exchanges.count == 1)
    let e = try #require(exchanges.first)
    #expect(e.method == "GET" && e.path == "/a b" && e.source == "t.har#0")
    #expect(e.query == [.init("x", "1"), .init("y", "two words")])
    #expect(e.body == Array("hi".utf8))
    #expect(e.headers == [HeaderField("X-Kept", "1")])
  }

  @Test func aDocumentThatIsNotAnArchiveIsRefused() {
    #expect(throws: APXError.self) { try HARReader.exchanges(Array(#"{"entries": []}"#.utf8), name: "x.har") }
    #expect(throws: APXError.self) { try HARReader.exchanges(Array("not json".utf8), name: "x.har") }
  }

  /// HTTPTypes traps on a status outside 100-599: such an entry is refused when read, naming it.
  @Test(arguments: ["1000", "99999", "99", "-1", "\"200\"", "200.5"])
  func aStatusThatIsNotHTTPIsRefusedNamingTheEntry(status: String) {
    let entry = Self.entry("GET", "https://a.example/x").replacingOccurrences(
      of: "\"status\": 200", with: "\"status\": \(status)")
    #expect(entry.contains("\"status\": \(status)"))
    do {
      _ = try HARReader.exchanges(Self.archive([Self.entry("GET", "https://a.example/ok"), entry]), name: "t.har")
      Issue.record("status \(status) was accepted")
    } catch {
      #expect(error.status == .invalidDefinition)
      #expect(error.message.contains("t.har#1: response.status"), "\(error.message)")
      #expect(error.message.contains("is not an HTTP status (100 to 599)"), "\(error.message)")
    }
  }

  /// An event due after a day, or before the head, would hold a replayed stream open for good.
  @Test(arguments: ["1e15", "-5", "86400001"])
  func anEventTimeBeyondADayIsRefused(time: String) {
    let entry =
      Self.entry("GET", "https://a.example/events").dropLast()
      + #", "_apx": {"events": [{"time": 3}, {"time": \#(time)}]}}"#
    do {
      _ = try HARReader.exchanges(Self.archive([String(entry)]), name: "t.har")
      Issue.record("event time \(time) was accepted")
    } catch {
      #expect(error.status == .invalidDefinition)
      #expect(error.message.contains("t.har#0: _apx.events[1].time"), "\(error.message)")
    }
  }

  @Test func eventTimesWithinADayAreKept() throws {
    let entry =
      Self.entry("GET", "https://a.example/events").dropLast()
      + #", "_apx": {"events": [{"time": 0}, {"time": 86400000}]}}"#
    let exchanges = try HARReader.exchanges(Self.archive([String(entry)]), name: "t.har")
    #expect(exchanges.first?.eventTimes == [0, 86_400_000])
  }

  @Test func queryOrderAndJSONSpacingDoNotMatterButValuesDo() throws {
    let replay = try Self.replay([
      Self.entry("POST", "http://h/jobs?b=2&a=1", body: #"{"name": "x", "n": 1}"#, text: #"{"id": 7}"#)
    ])
    let hit = replay.answer(
      method: "post", path: "/jobs", query: [.init("a", "1"), .init("b", "2")], body: Array(#"{"n":1,"name":"x"}"#.utf8)
    )
    #expect(Self.body(hit) == #"{"id": 7}"#)
    let miss = replay.answer(
      method: "POST", path: "/jobs", query: [.init("a", "1"), .init("b", "2")], body: Array(#"{"n":2,"name":"x"}"#.utf8)
    )
    guard case .unmatched(let nearest) = miss else {
      Issue.record("a different body matched")
      return
    }
    #expect(nearest?.requestLine == "POST /jobs?b=2&a=1")
  }

  /// Repeated requests get the recorded answers in order, then the last again; reset starts over.
  @Test func repeatedRequestsReplayTheirSequence() throws {
    let replay = try Self.replay([
      Self.entry("GET", "http://h/jobs/1", text: "queued"), Self.entry("GET", "http://h/other", text: "o"),
      Self.entry("GET", "http://h/jobs/1", text: "running"), Self.entry("GET", "http://h/jobs/1", text: "done"),
    ])
    let polls = (0..<5).map { _ in Self.body(replay.answer(method: "GET", path: "/jobs/1", query: [], body: [])) }
    #expect(polls == ["queued", "running", "done", "done", "done"])
    replay.reset()
    #expect(Self.body(replay.answer(method: "GET", path: "/jobs/1", query: [], body: [])) == "queued")
  }

  @Test func theNearestRecordedRequestPrefersTheSameMethod() throws {
    let replay = try Self.replay([
      Self.entry("DELETE", "http://h/books/1"), Self.entry("GET", "http://h/books/12"),
    ])
    guard case .unmatched(let nearest) = replay.answer(method: "GET", path: "/books/1", query: [], body: []) else {
      Issue.record("matched")
      return
    }
    #expect(nearest?.requestLine == "GET /books/12")
  }

  @Test(arguments: [
    ("/p", "/p", 0), ("http://h:1", "/", 0), ("http://h/a?x", "/a", 1), ("/a%2Fb?q=%E2%9C%93", "/a/b", 1),
    ("/bad%zz", "/bad%zz", 0),
  ])
  func pathsAndQueriesAreDecoded(_ url: String, _ path: String, _ pairs: Int) {
    let (p, q) = HARReader.pathAndQuery(of: url)
    #expect(p == path)
    #expect(q.count == pairs)
  }
}
