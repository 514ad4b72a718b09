#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// Where tests put their files: one folder per test process in the system's temporary folder,
/// removed with everything in it when the process exits. Each test still names its own folder
/// in it (with a UUID), so tests running in parallel never share one. Before, every test made
/// its folder straight in /tmp and left it there: 20,000 of them after a few runs.
package enum TestScratch {
  /// This process's folder, made at the first use.
  package static let root: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "apx-test-run-\(getpid())-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: TestScratch.root) }
    return url
  }()
}
