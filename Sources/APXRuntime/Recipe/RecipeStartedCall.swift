public import APXCore

/// A call the journal recorded as about to be sent (`started`) with no outcome after it:
/// the server may or may not have received it.
public struct RecipeStartedCall: Sendable, Hashable {
  /// The foreach item's index, nil for a plain step.
  public var index: Int?
  /// What was about to be sent (`POST /api/v2/imports`).
  public var request: String

  /// Makes a started call.
  public init(index: Int?, request: String) {
    self.index = index
    self.request = request
  }
}

extension RecipeJournalRecord {
  /// Refuses to resume when a step that is not safe to repeat may already have been sent:
  /// its call was recorded as started with no outcome after it, or it is the first step
  /// that did not finish and the journal's last line was cut short. `mustNotRepeat` says
  /// which steps those are (`RecipeRunner.recordsStart`). Nil when the run may resume.
  public func unknownOutcome(of recipe: Recipe, mustNotRepeat: (RecipeStep) -> Bool) -> APXError? {
    var first = true
    for step in recipe.steps where finished[step.id] == nil {
      defer { first = false }
      let calls = unsettled[step.id] ?? []
      guard !calls.isEmpty || (first && truncatedTail), mustNotRepeat(step) else { continue }
      let what: String
      let cause: String
      if let call = calls.first {
        let item = call.index.map { ", item \($0)," } ?? ""
        what = "step \"\(step.id)\" (\(step.call))\(item) may have sent \(call.request) already"
        cause = "the journal of run \(runID) recorded the call as about to be sent, and no answer after it"
      } else {
        what = "step \"\(step.id)\" (\(step.call)) may have been sent already"
        cause = "the last line of the journal of run \(runID) is cut short (a full disk or a crash while writing it)"
      }
      return APXError(
        .expectation, what + "; not resuming, since sending it again could do it twice",
        hint:
          "check on the server whether it took effect; then run the recipe again without --resume, or give the step an Idempotency-Key header built from ${run.id} so that it is safe to repeat",
        file: recipe.file, location: step.location, cause: cause)
    }
    return nil
  }
}
