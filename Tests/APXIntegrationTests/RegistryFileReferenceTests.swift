import APXCore
import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// A registry copied without the files it names (`Endpoints/classnotes.json` without
/// `Protos/`): `apx validate` says so, and a recipe that needs them stops before its first step.
@Suite("Files a registry or recipe names")
struct RegistryFileReferenceTests {
  /// A registry folder holding only a copy of classnotes.json (its protoset path leads nowhere).
  static func registryWithoutProtos() throws -> String {
    let dir = TestScratch.root.appendingPathComponent("apx-noprotos-\(UUID().uuidString)/Endpoints").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: APXProcess.packageRoot.appendingPathComponent("Endpoints/classnotes.json").path,
      toPath: dir + "/classnotes.json")
    return dir
  }

  @Test func validateReportsAMissingProtoset() async throws {
    let dir = try Self.registryWithoutProtos()
    let r = try await APXProcess.run(["validate", dir + "/classnotes.json"])
    #expect(r.status == 3, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("classnotes.flaky: cannot read the protoset"), "\(r.stderr)")
    #expect(r.stderr.contains("classnotes.json:"), "reported against the registry file: \(r.stderr)")
  }

  @Test func aRecipeNeedingAMissingProtosetSendsNothing() async throws {
    let dir = try Self.registryWithoutProtos()
    let recipe = APXProcess.packageRoot.appendingPathComponent("Recipes/lesson-lifecycle.json").path
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", recipe, "--registry", dir, "--base-url", server.grpcBaseURL],
        environment: [
          "APX_STATE_DIR": TestScratch.root.appendingPathComponent("apx-state-\(UUID().uuidString)").path
        ])
      #expect(r.status == 3, "\(r.stderr)")
      #expect(r.stderr.contains("cannot read the protoset"), "\(r.stderr)")
      #expect(!r.stderr.contains("step create"), "no step ran: \(r.stderr)")
      #expect(!r.stderr.contains("--resume"), "\(r.stderr)")
    }
  }
}
