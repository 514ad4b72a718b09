import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `-O FILE` writes the output to a file, replaced only once the call
/// succeeds, with download progress on a terminal.
@Suite("apx call -O FILE")
struct OutputFileTests {
  static func folder() throws -> URL {
    let dir = TestScratch.root.appendingPathComponent("apx-O-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  @Test func writesTheBodyAsReceivedAndNothingOnStdout() async throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("caps.json")
    let raw = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "-o", "raw"])
    let r = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "-O", file.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.isEmpty)
    #expect(try Data(contentsOf: file) == raw.stdoutBytes)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["caps.json"])
    let selected = try await APXProcess.run(
      ["call", "--demo", "books.capabilities.get", "--select", ".api", "-r", "--output-file", file.path])
    #expect(selected.status == 0, "\(selected.stderr)")
    #expect(try String(contentsOf: file, encoding: .utf8) == "books\n")
  }

  @Test func aFailedCallLeavesTheFileAsItWas() async throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("keep.json")
    try "old".write(to: file, atomically: true, encoding: .utf8)
    let r = try await APXProcess.run(
      ["call", "--demo", "books.imports.status", "job_id=imp_missing", "-O", file.path, "--no-retry"])
    #expect(r.status == 4, "\(r.stderr)")
    #expect(try String(contentsOf: file, encoding: .utf8) == "old")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["keep.json"], "a temporary file was left")
  }

  /// As `curl -o`: a private file stays private, and a link is written through, not replaced.
  @Test func keepsTheFilesModeAndWritesThroughASymbolicLink() async throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fm = FileManager.default
    let secret = dir.appendingPathComponent("private.json")
    try "old".write(to: secret, atomically: true, encoding: .utf8)
    try fm.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
    let r = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "-O", secret.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try fm.attributesOfItem(atPath: secret.path)[.posixPermissions] as? Int == 0o600)

    try fm.createDirectory(at: dir.appendingPathComponent("real"), withIntermediateDirectories: true)
    let real = dir.appendingPathComponent("real/data.json")
    try "old".write(to: real, atomically: true, encoding: .utf8)
    let link = dir.appendingPathComponent("link.json")
    try fm.createSymbolicLink(atPath: link.path, withDestinationPath: "real/data.json")
    let linked = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "-O", link.path])
    #expect(linked.status == 0, "\(linked.stderr)")
    #expect(try fm.destinationOfSymbolicLink(atPath: link.path) == "real/data.json", "the link was replaced")
    #expect(try String(contentsOf: real, encoding: .utf8) != "old", "the link's target was not written")
    #expect(try fm.contentsOfDirectory(atPath: dir.path).sorted() == ["link.json", "private.json", "real"])
    #expect(try fm.contentsOfDirectory(atPath: dir.path + "/real") == ["data.json"])
  }

  @Test func unusablePathsAreUsageErrors() async throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let folder = try await APXProcess.run(["call", "--demo", "books.capabilities.get", "-O", dir.path])
    #expect(folder.status == 2)
    #expect(folder.stderr.contains("is a folder"), "\(folder.stderr)")
    let missing = try await APXProcess.run(
      ["call", "--demo", "books.capabilities.get", "-O", dir.path + "/no/such/dir/x.json"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("cannot write"), "\(missing.stderr)")
  }

  @Test func aLargeDownloadShowsProgressOnATerminal() async throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("big.bin")
    try await withDemoServer { server in
      let url = server.httpBaseURL + "/api/v2/bench/bytes?size=8000000"
      guard let r = try await OutputFormattingTests.onTerminal(["call", url, "-O", file.path]) else { return }
      #expect(r.status == 0, "\(r.stdout)")
      #expect(r.stdout.contains("8.0 MB"), "no transfer bar: \(r.stdout)")
      #expect(r.stdout.contains("%"), "\(r.stdout)")
      let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
      #expect(size == 8_000_000)
    }
  }
}

/// An interrupted `-O` download leaves FILE as it was and no temporary file behind.
@Suite("apx call -O FILE, interrupted")
struct OutputFileInterruptTests {
  /// Ctrl-C, SIGTERM, and SIGHUP (the terminal closed).
  @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
  func anInterruptLeavesNoTemporaryFile(signal: Int32) async throws {
    let dir = try OutputFileTests.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("slow.bin")
    try "old".write(to: file, atomically: true, encoding: .utf8)
    try await withDemoServer { server in
      let arguments = ["call", server.httpBaseURL + "/_demo/stall?ms=20000&in_body=1", "-O", file.path]
      let run = try await ChildProcess.run(
        APXProcess.binary.path, arguments, environment: APXProcess.environment(), timeout: 60
      ) { child in
        // Wait (bounded) until the temporary file exists: the body has begun.
        var started = false
        for _ in 0..<200 where !started {
          started = (try FileManager.default.contentsOfDirectory(atPath: dir.path)).count > 1
          if !started { try await Task.sleep(nanoseconds: 25_000_000) }
        }
        #expect(started, "no temporary file appeared")
        child.send(signal)
      }
      #expect(run.signaled, "apx should end with the signal: \(String(decoding: run.stderr, as: UTF8.self))")
      #expect(try String(contentsOf: file, encoding: .utf8) == "old")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["slow.bin"], "a temporary file was left")
    }
  }
}
