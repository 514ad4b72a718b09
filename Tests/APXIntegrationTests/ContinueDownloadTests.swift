import Foundation
import Testing

/// `-O FILE --continue`: a cut download is kept and resumed with Range and If-Range; a server
/// that ignores the range, or whose file changed, starts the file over; bytes are never doubled.
@Suite struct ContinueDownloadTests {
  static let content: [UInt8] = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) }

  /// The `N` of a `Range: bytes=N-` request header, nil without one.
  static func rangeStart(_ head: String) -> Int? {
    guard let line = head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("range:") }),
      let equals = line.firstIndex(of: "="), let dash = line.lastIndex(of: "-")
    else { return nil }
    return Int(line[line.index(after: equals)..<dash])
  }

  static func ifRange(_ head: String) -> String? {
    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("if-range:") }
      .map { String($0.dropFirst("if-range:".count)).trimmingCharacters(in: .whitespaces) }
  }

  /// A server of `content` with ETag `etag` that honours Range (with If-Range) when `ranges`,
  /// and cuts its first full answer after `cutAt` bytes.
  static func server(etag: String, content: [UInt8], ranges: Bool, cutFirstAt cutAt: Int?) -> HostileHTTPServer.Answer {
    let served = Counter()
    return { head in
      let first = served.next() == 1
      // RFC 9110: Range alone is honoured; with If-Range, only while the validator matches.
      if ranges, let start = rangeStart(head), ifRange(head) == nil || ifRange(head) == etag {
        guard start < content.count else {
          return HostileHTTPServer.response(
            "416 Range Not Satisfiable", headers: [("Content-Range", "bytes */\(content.count)")], body: [])
        }
        return HostileHTTPServer.response(
          "206 Partial Content",
          headers: [("ETag", etag), ("Content-Range", "bytes \(start)-\(content.count - 1)/\(content.count)")],
          body: Array(content[start...]))
      }
      if first, let cutAt {
        // Announces the whole length, sends a part, closes: a cut download.
        return HostileHTTPServer.response(
          headers: [("ETag", etag)], body: Array(content[..<cutAt]), contentLength: content.count)
      }
      return HostileHTTPServer.response(headers: [("ETag", etag)], body: content)
    }
  }

  final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func next() -> Int {
      lock.withLock {
        value += 1; return value
      }
    }
  }

  static func folder() throws -> String {
    URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent().path
  }

  @Test func aCutDownloadIsResumedWhereItStopped() async throws {
    let dir = try Self.folder()
    let file = dir + "/data.bin"
    try await withHostileServer(Self.server(etag: "\"v1\"", content: Self.content, ranges: true, cutFirstAt: 40_000)) {
      server in
      let cut = try await APXProcess.run(["call", server.baseURL + "/data", "-O", file, "--continue", "--no-retry"])
      #expect(cut.status == 6, "\(cut.stderr)")
      #expect(!FileManager.default.fileExists(atPath: file), "FILE appears only when whole")
      // What arrived before the cut (the client may drop its last unread chunk): a prefix.
      let partial = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/.data.bin.apx-partial")))
      #expect(partial.count > 0 && partial.count <= 40_000 && partial == Array(Self.content.prefix(partial.count)))

      let rest = try await APXProcess.run(["call", server.baseURL + "/data", "-O", file, "--continue", "-v"])
      #expect(rest.status == 0, "\(rest.stderr)")
      #expect(rest.stderr.contains("> Range: bytes=\(partial.count)-"), "\(rest.stderr)")
      #expect(rest.stderr.contains("> If-Range: \"v1\""), "\(rest.stderr)")
      #expect(rest.stderr.contains("> Accept-Encoding: identity"), "ranges count unencoded bytes: \(rest.stderr)")
      #expect(Array(try Data(contentsOf: URL(fileURLWithPath: file))) == Self.content)
      #expect(!FileManager.default.fileExists(atPath: dir + "/.data.bin.apx-partial"))
      #expect(!FileManager.default.fileExists(atPath: dir + "/.data.bin.apx-partial.json"))
    }
  }

  @Test func aServerThatIgnoresTheRangeStartsTheFileOverWithoutDoublingIt() async throws {
    let dir = try Self.folder()
    let file = dir + "/data.bin"
    try await withHostileServer(Self.server(etag: "\"v1\"", content: Self.content, ranges: false, cutFirstAt: 30_000)) {
      server in
      let cut = try await APXProcess.run(["call", server.baseURL + "/data", "-O", file, "--continue", "--no-retry"])
      #expect(cut.status == 6, "\(cut.stderr)")
      let again = try await APXProcess.run(["call", server.baseURL + "/data", "-O", file, "--continue"])
      #expect(again.status == 0, "\(again.stderr)")
      #expect(again.stderr.contains("the server sent the whole file, not the rest of it"), "\(again.stderr)")
      #expect(Array(try Data(contentsOf: URL(fileURLWithPath: file))) == Self.content)
    }
  }

  @Test func aChangedFileIsDownloadedAgainWhole() async throws {
    let dir = try Self.folder()
    let file = dir + "/data.bin"
    try await withHostileServer(Self.server(etag: "\"v1\"", content: Self.content, ranges: true, cutFirstAt: 20_000)) {
      server in
      let cut = try await APXProcess.run(["call", server.baseURL + "/data", "-O", file, "--continue", "--no-retry"])
      #expect(cut.status == 6, "\(cut.stderr)")
    }
    // The same file name, now a new version: If-Range "v1" no longer matches, so 200 and all of it.
    let changed = Array(Self.content.reversed())
    try await withHostileServer(Self.server(etag: "\"v2\"", content: changed, ranges: true, cutFirstAt: nil)) {
      server in
      let again = try await APXProcess.run(["call", server.baseURL + "/data", "-O", file, "--continue"])
      #expect(again.status == 0, "\(again.stderr)")
      #expect(Array(try Data(contentsOf: URL(fileURLWithPath: file))) == changed)
    }
  }

  /// FILE half-written by another tool (curl, a browser): resumed from its size with Range alone,
  /// as curl -C - and wget -c do, saying that its bytes were not checked; FILE stays as it was
  /// until the download is whole.
  @Test func aFileAnotherToolLeftIsResumedFromItsSize() async throws {
    let dir = try Self.folder()
    let file = dir + "/data.bin"
    try Data(Self.content.prefix(40_000)).write(to: URL(fileURLWithPath: file))
    try await withHostileServer(Self.server(etag: "\"v1\"", content: Self.content, ranges: true, cutFirstAt: nil)) {
      server in
      let rest = try await APXProcess.run(["call", server.baseURL + "/data", "-O", file, "--continue", "-v"])
      #expect(rest.status == 0, "\(rest.stderr)")
      #expect(rest.stderr.contains("> Range: bytes=40000-"), "\(rest.stderr)")
      #expect(!rest.stderr.contains("> If-Range"), "\(rest.stderr)")
      #expect(rest.stderr.contains("the first 40000 bytes are not checked"), "\(rest.stderr)")
      #expect(Array(try Data(contentsOf: URL(fileURLWithPath: file))) == Self.content)
      #expect(!FileManager.default.fileExists(atPath: dir + "/.data.bin.apx-partial"))
    }
  }

  /// A FILE that is already whole: the server answers 416 with its length, which is FILE's, so
  /// the call succeeds as wget -c does, FILE is left as it is and no copy of it stays behind.
  /// A FILE longer than the server's is a 416 that fails (exit 4), saying FILE may have changed.
  @Test func aWholeFileIsLeftAsItIsWhenTheServerHasNoMoreBytes() async throws {
    let dir = try Self.folder()
    let file = dir + "/data.bin"
    try Data(Self.content).write(to: URL(fileURLWithPath: file))
    try await withHostileServer(Self.server(etag: "\"v1\"", content: Self.content, ranges: true, cutFirstAt: nil)) {
      server in
      let r = try await APXProcess.run(["call", server.baseURL + "/data", "-O", file, "--continue"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.contains("is whole already"), "\(r.stderr)")
      #expect(Array(try Data(contentsOf: URL(fileURLWithPath: file))) == Self.content)
      #expect(!FileManager.default.fileExists(atPath: dir + "/.data.bin.apx-partial"))

      try Data(Self.content + [1, 2, 3]).write(to: URL(fileURLWithPath: file))
      let longer = try await APXProcess.run(["call", server.baseURL + "/data", "-O", file, "--continue"])
      #expect(longer.status == 4, "\(longer.stderr)")
      #expect(longer.stderr.contains("416") && longer.stderr.contains("may be whole already"), "\(longer.stderr)")
      #expect(Array(try Data(contentsOf: URL(fileURLWithPath: file))) == Self.content + [1, 2, 3])
      #expect(!FileManager.default.fileExists(atPath: dir + "/.data.bin.apx-partial"))
    }
  }

  @Test func misusesAreRefused() async throws {
    for arguments in [
      ["call", "http://127.0.0.1:9/x", "--continue"],
      ["call", "http://127.0.0.1:9/x", "-O", "f", "--continue", "--select", ".a"],
      ["call", "http://127.0.0.1:9/x", "-O", "f", "--continue", "-H", "Range: bytes=1-"],
      ["call", "POST", "http://127.0.0.1:9/x", "-O", "f", "--continue", "a=1"],
      ["call", "ws://127.0.0.1:9/x", "-O", "f", "--continue"],
    ] {
      let result = try await APXProcess.run(arguments)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("--continue"), "\(result.stderr)")
    }
  }
}
