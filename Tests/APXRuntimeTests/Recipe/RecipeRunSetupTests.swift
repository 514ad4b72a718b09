import APXCore
import APXRuntime
import APXTestSupport
import Foundation
import Testing

/// The parse stage of a run: inputs bound, the run to resume found, its secret inputs asked for again.
@Suite("Recipe run setup")
struct RecipeRunSetupTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A recipe with a secret input and a plain one, against the repository's registry.
  static func file() throws -> RecipeFile {
    let folder = TestScratch.root.appendingPathComponent("apx-setup-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("keyed.json").path
    try #"""
    {
      "name": "keyed",
      "inputs": { "key": { "type": "string", "secret": true, "required": true }, "n": { "type": "number", "default": 1 } },
      "steps": [ { "id": "caps", "call": "books.capabilities.get", "headers": { "X-Key": "${input.key}" } } ]
    }
    """#.write(toFile: path, atomically: true, encoding: .utf8)
    return try RecipeFile.load(path: path, registryDirectories: [packageRoot.appendingPathComponent("Endpoints").path])
  }

  @Test func aResumeTakesEarlierInputsAndAsksForSecretOnesAgain() throws {
    let file = try Self.file()
    let state = TestScratch.root.appendingPathComponent("apx-setup-state-\(UUID().uuidString)")
    let environment = ["APX_STATE_DIR": state.path]
    let first = try RecipeRunSetup.prepare(
      file: file, given: [.init(name: "key", value: .string("s3cret")), .init(name: "n", value: .int(5))],
      resume: false, resumeID: nil, environment: environment)
    #expect(first.mask.mask("X s3cret") == "X ***")
    do {
      // The first run ends here: its journal, and the run's lock with it, are released.
      let journal = try first.openJournal()
      try journal.append(.end(state: "failed", at: ""), sync: true)
      #expect(try !String(contentsOfFile: journal.path, encoding: .utf8).contains("s3cret"))
    }

    #expect(throws: APXError.self) {
      try RecipeRunSetup.prepare(file: file, given: [], resume: true, resumeID: nil, environment: environment)
    }
    let resumed = try RecipeRunSetup.prepare(
      file: file, given: [.init(name: "key", value: .string("s3cret"))], resume: true, resumeID: nil,
      environment: environment)
    #expect(resumed.runID == first.runID)
    #expect(resumed.inputs["n"] == .int(5), "the earlier input is kept")
    #expect(resumed.resume != nil)
  }

  @Test func aRunInProgressIsNotResumedByAnotherProcess() throws {
    let file = try Self.file()
    let state = TestScratch.root.appendingPathComponent("apx-setup-state-\(UUID().uuidString)")
    let environment = ["APX_STATE_DIR": state.path]
    let given: [RecipeInputBinder.Given] = [.init(name: "key", value: .string("s3cret"))]
    let first = try RecipeRunSetup.prepare(
      file: file, given: given, resume: false, resumeID: nil, environment: environment)
    var running: RecipeJournal? = try first.openJournal()
    // Another open file description of the lock file conflicts as another process's would.
    do {
      _ = try RecipeRunSetup.prepare(file: file, given: given, resume: true, resumeID: nil, environment: environment)
      Issue.record("a second resume of a running run went ahead")
    } catch let error as APXError {
      #expect(error.status == .usage)
      #expect(error.message == "run \(first.runID) is in progress (pid \(getpid()))", "\(error)")
    }
    try running?.append(.end(state: "failed", at: ""), sync: true)
    running = nil  // the first process ends: its lock goes with it
    let resumed = try RecipeRunSetup.prepare(
      file: file, given: given, resume: true, resumeID: first.runID, environment: environment)
    #expect(resumed.runID == first.runID)
    #expect(resumed.lock != nil)
    withExtendedLifetime(resumed) {
      #expect(throws: APXError.self, "the resumed run holds the lock") {
        try RecipeRunSetup.prepare(file: file, given: given, resume: true, resumeID: nil, environment: environment)
      }
    }
  }

  @Test func aSecretInputFromItsEnvDefaultIsReadAgainOnResume() throws {
    let folder = TestScratch.root.appendingPathComponent("apx-setup-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("env-key.json").path
    try #"""
    {
      "name": "env-key",
      "inputs": { "key": { "type": "string", "secret": true, "default": "${env:APX_SETUP_TEST_KEY}" } },
      "steps": [ { "id": "caps", "call": "books.capabilities.get", "headers": { "X-Key": "${input.key}" } } ]
    }
    """#.write(toFile: path, atomically: true, encoding: .utf8)
    let file = try RecipeFile.load(
      path: path, registryDirectories: [Self.packageRoot.appendingPathComponent("Endpoints").path])
    let state = TestScratch.root.appendingPathComponent("apx-setup-state-\(UUID().uuidString)")
    let environment = ["APX_STATE_DIR": state.path, "APX_SETUP_TEST_KEY": "env-s3cret"]
    let first = try RecipeRunSetup.prepare(
      file: file, given: [], resume: false, resumeID: nil, environment: environment)
    do {
      let journal = try first.openJournal()
      try journal.append(.end(state: "failed", at: ""), sync: true)
      #expect(try !String(contentsOfFile: journal.path, encoding: .utf8).contains("env-s3cret"))
    }
    let resumed = try RecipeRunSetup.prepare(
      file: file, given: [], resume: true, resumeID: first.runID, environment: environment)
    #expect(resumed.inputs["key"] == .string("env-s3cret"), "read again from the environment")
    #expect(resumed.mask.mask("X env-s3cret") == "X ***")
  }

  @Test func aRunIDIsAFileNameNotAPath() throws {
    let file = try Self.file()
    let state = TestScratch.root.appendingPathComponent("apx-setup-state-\(UUID().uuidString)")
    #expect(throws: APXError.self) {
      try RecipeRunSetup.find(state: state.path, runID: "../../etc/passwd", recipePath: file.absolutePath)
    }
  }
}
