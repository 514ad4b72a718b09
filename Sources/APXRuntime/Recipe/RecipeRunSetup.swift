public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Everything a run needs before its first call: the run to resume (found by
/// id or as the latest unfinished run of the recipe), the inputs (given ones,
/// the resumed run's earlier ones, defaults), the run id, and the secret mask.
/// The command line only parses words into `given`; this is the rest of the
/// parse stage.
public struct RecipeRunSetup: Sendable {
  /// The loaded, validated recipe.
  public var file: RecipeFile
  /// The run's id (the resumed run's, or a new one).
  public var runID: String
  /// The journal of the run being resumed.
  public var resume: RecipeJournalRecord?
  /// The bound inputs.
  public var inputs: JSONValue
  /// Secrets to mask everywhere the run writes.
  public var mask: SecretMask
  /// Where journals live (`<state>/runs`).
  public var stateDirectory: String
  /// The resumed run's lock, taken before its journal was read (a new run takes its own in `openJournal`).
  public var lock: RecipeRunLock?

  /// Finds the run to resume (when `resume`), merges its inputs under the
  /// given ones, binds them, and builds the mask.
  /// - Throws: `.usage` when there is no state directory, no run to resume,
  ///   or a secret input of the resumed run is not given again; `APXErrors`
  ///   with every input that does not bind.
  public static func prepare(
    file: RecipeFile, given: [RecipeInputBinder.Given], resume: Bool, resumeID: String?,
    environment: [String: String]
  ) throws -> RecipeRunSetup {
    let recipe = file.recipe
    guard let state = UserDirectories.stateDirectory(environment: environment) else {
      throw APXError(.usage, "no state directory for the run journal", hint: "set APX_STATE_DIR or HOME")
    }
    var given = given
    var record: RecipeJournalRecord?
    var lock: RecipeRunLock?
    if resume {
      let candidate = try find(state: state, runID: resumeID, recipePath: file.absolutePath)
      lock = try RecipeRunLock.take(stateDirectory: state, runID: candidate.runID)
      // Read again under the lock: a process that held it may have finished more steps since.
      let found = try find(state: state, runID: candidate.runID, recipePath: file.absolutePath)
      if let unknown = found.unknownOutcome(
        of: recipe, mustNotRepeat: { RecipeRunner.recordsStart($0, api: file.registry.apis[$0.api]) })
      {
        throw unknown
      }
      given = try inputs(of: found, under: given, recipe: recipe)
      record = found
    }
    let runID = record?.runID ?? RecipeJournal.newRunID()
    let runValues = JSONValue.object([JSONMember("id", .string(runID)), JSONMember("recipe", .string(recipe.name))])
    let inputs = try RecipeInputBinder.bind(recipe, given: given) { ref throws(APXError) -> JSONValue? in
      switch ref.namespace {
      case "env": return ref.variable.flatMap { environment[$0] }.map(JSONValue.string)
      case "run": return try ref.path.selectStrictly(in: runValues).first
      default:
        throw APXError(
          .usage, "\(ref) cannot be used in an input's default", hint: "defaults may use ${env:NAME} and ${run.id}")
      }
    }
    let missing = RecipeFileReferences.missingInputFiles(recipe: recipe, inputs: inputs, directory: file.directory)
    if !missing.isEmpty { throw APXErrors(missing) }
    let mask = RecipeSecrets.mask(
      recipe: recipe, inputs: inputs, apis: file.registry.apis.values.map { $0 }, environment: environment)
    return RecipeRunSetup(
      file: file, runID: runID, resume: record, inputs: inputs, mask: mask, stateDirectory: state, lock: lock)
  }

  /// Takes the run's lock (a resumed run holds it already), opens the run's journal, which
  /// keeps the lock until it is released, and writes its start line (forced to disk).
  public func openJournal() throws(APXError) -> RecipeJournal {
    var lock = self.lock
    if lock == nil { lock = try RecipeRunLock.take(stateDirectory: stateDirectory, runID: runID) }
    let journal = try RecipeJournal(stateDirectory: stateDirectory, runID: runID, mask: mask, lock: lock)
    try journal.append(
      .start(
        RecipeJournalStart(
          runID: runID, recipePath: file.absolutePath, name: file.recipe.name,
          inputs: RecipeSecrets.journalInputs(recipe: file.recipe, inputs: inputs),
          secretInputs: file.recipe.inputs.filter(\.secret).map(\.name), resumed: resume != nil,
          at: RecipeJournal.timestamp())), sync: true)
    return journal
  }

  /// The resumed run's inputs under the given ones: a given value wins; secret
  /// inputs were never journaled, so each must be given again, unless it has a
  /// default (e.g. `${env:TOKEN}`), which binding reads again as the first run did.
  static func inputs(of record: RecipeJournalRecord, under given: [RecipeInputBinder.Given], recipe: Recipe)
    throws(APXError) -> [RecipeInputBinder.Given]
  {
    let givenNames = Set(given.map(\.name))
    for name in record.secretInputs where !givenNames.contains(name) {
      if recipe.input(named: name)?.defaultValue != nil { continue }
      throw APXError(
        .usage, "the secret input \"\(name)\" is not kept in the journal", hint: "pass \(name)=... again with --resume")
    }
    let earlier = record.inputs.filter {
      !givenNames.contains($0.key) && !record.secretInputs.contains($0.key) && $0.value != .null
    }
    return earlier.map { RecipeInputBinder.Given(name: $0.key, value: $0.value) } + given
  }

  /// The run to resume: `runID`'s journal (which must belong to this recipe
  /// and not have completed), or the latest unfinished run of the recipe.
  public static func find(state: String, runID: String?, recipePath: String) throws(APXError) -> RecipeJournalRecord {
    if let runID {
      let path = state + "/runs/" + runID + ".jsonl"
      guard !runID.contains("/"), FileManager.default.fileExists(atPath: path) else {
        throw APXError(.usage, "no run \(runID) in \(state)/runs", hint: "the run id is printed when a run stops early")
      }
      let record = try RecipeJournalRecord.read(path: path)
      if record.recipePath != recipePath {
        throw APXError(
          .usage, "the run \(runID) belongs to \(record.recipePath), not \(recipePath)",
          hint: "run that recipe with --resume \(runID)")
      }
      if record.completed {
        throw APXError(.usage, "the run \(runID) already completed", hint: "run the recipe again without --resume")
      }
      return record
    }
    guard let record = RecipeJournalRecord.latestUnfinished(stateDirectory: state, recipePath: recipePath) else {
      throw APXError(.usage, "no unfinished run of \(recipePath) to resume", hint: "run it without --resume")
    }
    return record
  }
}
