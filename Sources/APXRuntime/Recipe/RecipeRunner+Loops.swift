import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension RecipeRunner {
  /// Sums per-item check outcomes into one result per check.
  struct CheckTally {
    var order: [String] = []
    var byName: [String: RecipeCheckResult] = [:]

    mutating func add(_ outcomes: [CheckOutcome], step: String) {
      for o in outcomes {
        if byName[o.name] == nil {
          order.append(o.name)
          byName[o.name] = RecipeCheckResult(step: step, name: o.name, passed: 0, failed: 0)
        }
        if o.passed {
          byName[o.name]?.passed += 1
        } else {
          byName[o.name]?.failed += 1
          if byName[o.name]?.failure == nil { byName[o.name]?.failure = o.failure }
        }
      }
    }

    var results: [RecipeCheckResult] { order.compactMap { byName[$0] } }
  }

  /// Journal lines of finished items of a loop that is not safe to repeat
  /// are fsync'd in batches of this many. Measured on this project's ext4 disk:
  /// a line's `write` costs 1.6 µs, `write` + `fsync` 1.4–2 ms. An fsync per
  /// item would add 15–20 s to a 10,000-item loop (whose calls take the demo
  /// server 12.5 s at concurrency 16), one per 32 items adds ~0.05 ms per item:
  /// the 10,000-view benchmark ran at 617–633 items/s with item journaling,
  /// 592–677 without (noise; load average 11).
  /// Every line is still written at once, so Ctrl-C, a kill or a closed
  /// terminal loses nothing; only an OS crash or power cut can lose the last
  /// batch, which then runs again — the same kind of repeat as the items in
  /// flight at an interruption, which idempotency keys make harmless.
  static let itemSyncBatch = 32

  /// `foreach`: one call per item (or chunk), at most `concurrency` at a time
  /// (a bounded task group: a new item starts when one finishes). Item
  /// results are kept only when a later step or the output reads them.
  ///
  /// Every finished item (call done, checks passed) is journaled with its
  /// index, so `--resume` runs only the items that did not finish. An `if`
  /// that reads the item is evaluated per item; items for which it does not
  /// hold are skipped. When an item fails (and `continue_on_error` is off), no
  /// new item starts, but the items in flight finish and are journaled, so a
  /// resume repeats none of them; on Ctrl-C they are cancelled and run again.
  func runForeach(
    _ step: RecipeStep, target: RecipeTarget, endpoint: Endpoint, scope: RecipeScope, notes: StepNotes
  ) async throws
    -> RecipeStepRecord
  {
    guard let loop = step.foreach else { throw APXError(.internalFailure, "not a foreach step") }
    let over = try Template.renderStrings(in: loop.over, resolve: scope.resolve)
    guard case .array(let values) = over else {
      throw APXError(
        .expectation, "foreach.over must give a list, got \(over.typeName)",
        hint: "point it at an array, e.g. \"${steps.list.body.items}\" or \"${steps.pages[].body.data[]}\"",
        file: recipe.file, location: step.location)
    }
    let items: [JSONValue]
    if let size = loop.chunk {
      items = stride(from: 0, to: values.count, by: size).map {
        .array(Array(values[$0..<min($0 + size, values.count)]))
      }
    } else {
      items = values
    }
    let retention = laterRetention[step.id] ?? .none
    let keep = retention != .none
    // Items finished in the run being resumed; ignored if the list changed size since.
    let finishedBefore = resume?.finishedItems[step.id].flatMap { $0.count == items.count ? $0.results : nil } ?? [:]
    let itemCondition = step.conditionIsPerItem ? step.condition : nil
    let syncItems = !safeToRepeat(step)
    var results: [JSONValue] = keep ? Array(repeating: .null, count: items.count) : []
    var tally = CheckTally()
    var failures: [APXError] = []
    /// The failure that stops the loop; `attributed` when it already names the step (`apxError`).
    var stopping: (error: APXError, attributed: Bool)?
    var done = 0
    var calls = 0
    var skipped = 0
    var resumed = 0
    var unsynced = 0
    observer?.stepProgress(step, done: 0, total: items.count)

    /// Records an item that failed (its call or its `if`); without `continue_on_error` the loop stops starting items.
    func failed(_ index: Int, _ error: APXError, attributed: Bool) {
      failures.append(error)
      observer?.itemFailed(step, index: index, error: error)
      if keep {
        results[index] = RecipeStepResult.failed(error.message)
      }
      if !step.continueOnError, stopping == nil { stopping = (error, attributed) }
    }

    try await withThrowingTaskGroup(of: (Int, CallResult?, APXError?).self) { group in
      var next = 0
      /// Starts the next item that needs a call; items finished before or
      /// skipped by their `if` are settled on the way. False when none is left.
      func startNext() -> Bool {
        while next < items.count, stopping == nil {
          let index = next
          next += 1
          if let result = finishedBefore[index] {
            if keep { results[index] = result }
            resumed += 1
            done += 1
            observer?.stepProgress(step, done: done, total: items.count)
            continue
          }
          var itemScope = scope
          itemScope.item = (loop.name, items[index])
          itemScope.loop = .object([JSONMember("index", .int(index)), JSONMember("number", .int(index + 1))])
          if let itemCondition {
            let holds: Bool
            do {
              holds = try RecipeCheckEvaluator.holds(itemCondition, on: items[index], resolve: itemScope.resolve)
            } catch {
              var e = error
              e.message = "step \"\(step.id)\" (\(step.call)), item \(index): if: " + e.message
              e.file = recipe.file
              e.location = step.location
              failed(index, e, attributed: false)
              done += 1
              observer?.stepProgress(step, done: done, total: items.count)
              continue
            }
            if !holds {
              let result = RecipeStepResult.skipped
              if keep { results[index] = result }
              skipped += 1
              done += 1
              observer?.itemFinished(step, index: index, result: result)
              observer?.stepProgress(step, done: done, total: items.count)
              continue
            }
          }
          calls += 1
          group.addTask {
            do {
              let r = try await self.callOnce(
                step, target: target, endpoint: endpoint, scope: itemScope, streamJournal: false, notes: notes,
                item: index)
              return (index, r, nil)
            } catch {
              if error is CancellationError || Task.isCancelled { throw CancellationError() }
              return (index, nil, Self.apxError(error, step: step))
            }
          }
          return true
        }
        return false
      }

      var running = 0
      while running < loop.concurrency, startNext() { running += 1 }
      while running > 0, let (index, result, error) = try await group.next() {
        running -= 1
        done += 1
        if let result {
          tally.add(result.checks, step: step.id)
          let kept = keep ? retention.trim(result.result) : nil
          if let kept { results[index] = kept }
          if result.checks.allSatisfy(\.passed) {
            // Finished: a resumed run skips it. (An item that failed a check runs again, like a failed step.)
            unsynced += 1
            let sync = syncItems && unsynced >= Self.itemSyncBatch
            if sync { unsynced = 0 }
            do {
              try journal?.append(.item(step: step.id, index: index, of: items.count, result: kept), sync: sync)
            } catch let error as APXError {
              if stopping == nil { stopping = (error, false) }
            }
          }
          observer?.itemFinished(step, index: index, result: result.result)
        } else if let error {
          failed(index, error, attributed: true)
        }
        observer?.stepProgress(step, done: done, total: items.count)
        if startNext() { running += 1 }
      }
    }
    if syncItems, unsynced > 0 { try journal?.sync() }
    if let stopping { throw stopping.attributed ? StepFailure(error: stopping.error) : stopping.error }
    var record = RecipeStepRecord(
      id: step.id, call: step.call, state: .ok, result: .array(results), checks: tally.results, duration: 0, error: nil,
      calls: calls, skippedItems: skipped, resumedItems: resumed)
    record.failedItems = failures.count
    if let failed = tally.results.first(where: { $0.failed > 0 }) {
      record.state = .failed
      record.error = APXError(
        .expectation,
        "step \"\(step.id)\" (\(step.call)): \(failed.failed) of \(failed.passed + failed.failed) items failed the check: \(failed.failure ?? failed.name)",
        file: recipe.file, location: step.location)
    }
    return record
  }

  /// A REST step with `until`: called again (with `${loop.number}` and
  /// `${loop.previous}`) until its result satisfies the condition, e.g. walking
  /// pages until `has_next` is false. The result is the array of every call's result.
  func runRepeated(
    _ step: RecipeStep, target: RecipeTarget, endpoint: Endpoint, scope: RecipeScope, notes: StepNotes
  ) async throws
    -> RecipeStepRecord
  {
    guard let until = step.until else { throw APXError(.internalFailure, "not a repeated step") }
    let limit = step.maxIterations ?? 1000
    let keep = (laterRetention[step.id] ?? .none) != .none
    let retention = laterRetention[step.id] ?? .none
    var results: [JSONValue] = []
    var tally = CheckTally()
    var previous: JSONValue = .null
    var index = 0
    while true {
      guard index < limit else {
        throw APXError(
          .expectation, "the until condition did not hold after \(limit) calls",
          hint: "raise max_iterations, or check the condition", file: recipe.file, location: step.location)
      }
      if index > 0, let interval = step.interval, interval > 0 {
        try await Task.sleep(for: .milliseconds(DurationConversion.milliseconds(interval)))
      }
      var loopScope = scope
      loopScope.loop = .object([
        JSONMember("index", .int(index)), JSONMember("number", .int(index + 1)), JSONMember("previous", previous),
      ])
      let r = try await callOnce(
        step, target: target, endpoint: endpoint, scope: loopScope, streamJournal: false, notes: notes)
      tally.add(r.checks, step: step.id)
      if keep { results.append(retention.trim(r.result)) }
      observer?.itemFinished(step, index: index, result: r.result)
      observer?.stepProgress(step, done: index + 1, total: nil)
      previous = r.result
      index += 1
      if try RecipeCheckEvaluator.holds(until, on: r.result, resolve: loopScope.resolve) { break }
    }
    var record = RecipeStepRecord(
      id: step.id, call: step.call, state: .ok, result: .array(results), checks: tally.results, duration: 0, error: nil,
      calls: index)
    if let failed = tally.results.first(where: { $0.failed > 0 }) {
      record.state = .failed
      record.error = APXError(
        .expectation, "step \"\(step.id)\" (\(step.call)): \(failed.failure ?? failed.name)", file: recipe.file,
        location: step.location)
    }
    return record
  }
}
