import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// A state folder that cannot be written does not stop an OAuth2 call: the fetched token is
/// used for the process, with one warning naming the folder and the system's reason. (As
/// root, a read-only folder is still writable: a folder under a regular file fails for real.)
@Suite("Token store that cannot be written")
struct TokenStoreFailureTests {
  @Test func aCallGoesOnWithTheFetchedTokenAndOneWarning() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-token-store-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let file = dir + "/not-a-folder"
    try "x".write(toFile: file, atomically: true, encoding: .utf8)
    let state = file + "/state"
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let r = try await APXProcess.run(
        ["call", "books.capabilities.get", "--base-url", server.httpBaseURL], environment: ["APX_STATE_DIR": state])
      #expect(r.status == 0, "\(r.stderr)")
      let warnings = r.stderr.split(separator: "\n").filter { $0.contains("warning: cannot save the token") }
      #expect(warnings.count == 1, "\(r.stderr)")
      #expect(warnings.first?.contains(state + "/tokens") == true, "\(r.stderr)")
      #expect(warnings.first?.contains("Not a directory") == true, "\(r.stderr)")
      #expect(!r.stderr.contains("CocoaError"), "\(r.stderr)")
      #expect(server.stats.tokenRequests == 1)
    }
  }
}
