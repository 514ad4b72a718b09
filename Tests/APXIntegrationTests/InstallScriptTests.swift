import APXTestSupport
import Foundation
import Testing

/// `scripts/install.sh` installs apx, its completions and its man page under a
/// prefix, upgrades in place, and `--uninstall` removes exactly what it installed. The build
/// itself is skipped with `--binary` (a release build takes 20 minutes); the copy, strip and
/// generation steps are the real ones.
@Suite("scripts/install.sh", .serialized, .timeLimit(.minutes(5)))
struct InstallScriptTests {
  static let script = APXProcess.packageRoot.appendingPathComponent("scripts/install.sh")
  static let installed = [
    "bin/apx", "share/bash-completion/completions/apx", "share/zsh/site-functions/_apx",
    "share/fish/vendor_completions.d/apx.fish", "share/man/man1/apx.1",
  ]

  static func install(_ arguments: [String]) async throws -> APXResult {
    try await APXProcess.run(arguments, timeout: 120, executable: script)
  }

  @Test func installsUpgradesAndUninstallsExactlyItsFiles() async throws {
    let prefix = TestScratch.root.appendingPathComponent("apx-prefix-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: prefix) }
    let first = try await Self.install(["--prefix", prefix.path, "--binary", APXProcess.binary.path])
    #expect(first.status == 0, "\(first.stderr)")
    for file in Self.installed {
      #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file) missing")
    }
    #expect(first.stdout.contains("is not on PATH"), "\(first.stdout)")
    let version = try await APXProcess.run(
      ["--version"], executable: prefix.appendingPathComponent("bin/apx"))
    #expect(version.status == 0 && version.stdout.hasPrefix("apx "), "\(version.stderr)")
    let completion = try String(
      contentsOf: prefix.appendingPathComponent("share/bash-completion/completions/apx"), encoding: .utf8)
    #expect(completion.contains("_apx"))
    let manual = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/apx.1"), encoding: .utf8)
    #expect(manual.hasPrefix(".TH APX 1"))

    // A file of the user's own beside apx survives both the upgrade and the uninstall.
    let mine = prefix.appendingPathComponent("bin/mine")
    try "keep".write(to: mine, atomically: true, encoding: .utf8)
    let again = try await Self.install(["--prefix", prefix.path, "--binary", APXProcess.binary.path])
    #expect(again.status == 0, "\(again.stderr)")
    let removed = try await Self.install(["--prefix", prefix.path, "--uninstall"])
    #expect(removed.status == 0, "\(removed.stderr)")
    for file in Self.installed {
      #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file) left")
    }
    #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/apx").path))
    #expect(FileManager.default.fileExists(atPath: mine.path), "uninstall removed a file it did not install")

    let twice = try await Self.install(["--prefix", prefix.path, "--uninstall"])
    #expect(twice.status == 2)
    #expect(twice.stderr.contains("nothing to uninstall"), "\(twice.stderr)")
  }

  @Test func badArgumentsAreUsageErrors() async throws {
    let unknown = try await Self.install(["--bogus"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("unknown argument '--bogus'"), "\(unknown.stderr)")
    let noFolder = try await Self.install(["--prefix"])
    #expect(noFolder.status == 2)
    #expect(noFolder.stderr.contains("--prefix needs a folder"), "\(noFolder.stderr)")
    let noBinary = try await Self.install(["--binary", "/nonexistent/apx"])
    #expect(noBinary.status == 2)
    #expect(noBinary.stderr.contains("--binary needs an executable"), "\(noBinary.stderr)")
  }
}
