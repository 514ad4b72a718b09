import APXTestSupport
import Foundation
import Testing

/// Files apx reads whole (`name=@file`, `name:=@file`, registry files) are read with a 64 MiB
/// limit, pipes included, and a file that cannot be read says why.
@Suite("Files read whole")
struct FileReadLimitTests {
  static func preview(_ items: [String], stdin: Data? = nil) async throws -> APXResult {
    try await APXProcess.run(["call", "--dry-run", "http://127.0.0.1:1/x"] + items, stdin: stdin, timeout: 60)
  }

  /// `/dev/zero` never ends and a sparse file of 65 MiB takes no disk: both used to be read
  /// whole (a 2 GB file trapped on allocation; /dev/zero was refused as "check its permissions").
  @Test(arguments: ["text=@", "json:=@"])
  func aFileLargerThanTheLimitIsAUsageError(_ item: String) async throws {
    let sparse = try temporaryFile("sparse.bin", "")
    #expect(truncate(sparse, 65 * 1_048_576) == 0)
    for path in ["/dev/zero", sparse] {
      let r = try await Self.preview([item + path])
      #expect(r.status == 2, "\(item)\(path): \(r.stderr)")
      #expect(r.stderr.contains("\(path) is larger than 64 MiB"), "\(r.stderr)")
      #expect(r.stdout.isEmpty)
    }
  }

  /// A pipe is read to its end: `name=@<(command)` in a shell, here `/dev/stdin` on a pipe.
  @Test func aPipeIsReadToItsEnd() async throws {
    let r = try await Self.preview(["note=@/dev/stdin"], stdin: Data("piped text\n".utf8))
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains(#""body":{"note":"piped text"}"#), "\(r.stdout)")
  }

  /// A registry file whose symbolic link points at itself is reported as such, not as an
  /// API that does not exist (whose hint used to suggest the same name).
  @Test func aSymbolicLinkLoopIsNamed() async throws {
    let folder = TestScratch.root.appendingPathComponent("links-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let link = folder.appendingPathComponent("loop.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "loop.json")
    let r = try await APXProcess.run(["call", "loop.get", "--registry", folder.path])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("cannot read \(link): its symbolic links form a loop"), "\(r.stderr)")
  }

  /// stdin read whole (`name=@-.path`, `--token-stdin`) stops at 64 MiB: `< /dev/zero` grew
  /// by 270 MB a second. Spaces are valid JSON whitespace, so nothing else stops them.
  @Test(arguments: [["text=@-.a"], ["--token-stdin"]])
  func stdinPastTheLimitIsAUsageError(_ items: [String]) async throws {
    let r = try await Self.preview(items, stdin: Data(repeating: 0x20, count: 65 * 1_048_576))
    #expect(r.status == 2, "\(items): \(r.stderr)")
    #expect(r.stderr.contains("stdin holds more than 64 MiB"), "\(r.stderr)")
  }
}
