import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `--har FILE` writes as `-O` does: an existing file keeps its mode, a symbolic link is written
/// through, and a FILE that cannot be written is refused before anything is sent.
@Suite struct HARFileTests {
  static func folder() throws -> URL {
    let dir = TestScratch.root.appendingPathComponent("apx-har-file-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  static func mode(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue & 0o777
  }

  @Test func aPrivateArchiveStaysPrivateAndALinkIsWrittenThrough() async throws {
    let dir = try Self.folder()
    let private0600 = dir.appendingPathComponent("private.har").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: private0600))
    chmod(private0600, 0o600)
    let real = dir.appendingPathComponent("real.har").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: real))
    let link = dir.appendingPathComponent("link.har").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.har")
    try await withDemoServer { server in
      for file in [private0600, link] {
        let r = try await APXProcess.run(["call", server.httpBaseURL + "/api/v2/bench/small", "--har", file])
        #expect(r.status == 0, "\(r.stderr)")
      }
    }
    #expect(try Self.mode(private0600) == 0o600, "the archive was made readable by others")
    #expect(try HARTests.entries(private0600).count == 1)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.har", "the link was replaced")
    #expect(try HARTests.entries(real).count == 1)
  }

  /// Nothing listens on port 1: a call that was sent would fail on the network (exit 6).
  @Test func aFileThatCannotBeWrittenIsRefusedBeforeAnythingIsSent() async throws {
    let dir = try Self.folder()
    let missing = dir.appendingPathComponent("no/such/folder/x.har").path
    let r = try await APXProcess.run(["call", "http://127.0.0.1:1/x", "--har", missing])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("cannot write \(missing)"), "\(r.stderr)")
    let folder = try await APXProcess.run(["call", "http://127.0.0.1:1/x", "--har", dir.path])
    #expect(folder.status == 2, "\(folder.stderr)")
    #expect(folder.stderr.contains("--har \(dir.path) is a folder"), "\(folder.stderr)")
  }
}
