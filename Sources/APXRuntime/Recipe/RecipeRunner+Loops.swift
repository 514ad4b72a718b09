import APXCore
import Foundation

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

  /// `foreach`: one call per item (or chunk), at most `concurrency` at a time
  /// (a bounded task group: a new item starts when one finishes). Item
  /// results are kept only when a later step or the output reads them.
  func runForeach(_ step: RecipeStep, target: RecipeTarget, endpoint: Endpoint, scope: RecipeScope) async throws
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
    let keep = (laterRetention[step.id] ?? .none) != .none
    let retention = laterRetention[step.id] ?? .none
    var results: [JSONValue] = keep ? Array(repeating: .null, count: items.count) : []
    var tally = CheckTally()
    var failures: [APXError] = []
    var done = 0
    observer?.stepProgress(step, done: 0, total: items.count)
    try await withThrowingTaskGroup(of: (Int, CallResult?, APXError?).self) { group in
      var next = 0
      func start() {
        let index = next
        next += 1
        var itemScope = scope
        itemScope.item = (loop.name, items[index])
        itemScope.loop = .object([JSONMember("index", .int(index)), JSONMember("number", .int(index + 1))])
        group.addTask {
          do {
            let r = try await self.callOnce(
              step, target: target, endpoint: endpoint, scope: itemScope, streamJournal: false)
            return (index, r, nil)
          } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            return (index, nil, Self.apxError(error, step: step))
          }
        }
      }
      for _ in 0..<min(loop.concurrency, items.count) { start() }
      while let (index, result, error) = try await group.next() {
        done += 1
        if let result {
          tally.add(result.checks, step: step.id)
          if keep { results[index] = retention.trim(result.result) }
          observer?.itemFinished(step, index: index, result: result.result)
        } else if let error {
          failures.append(error)
          if keep {
            results[index] = .object([
              JSONMember("status", .null),
              JSONMember("error", .object([JSONMember("message", .string(error.message))])),
            ])
          }
          if !step.continueOnError {
            group.cancelAll()
            throw error
          }
        }
        observer?.stepProgress(step, done: done, total: items.count)
        if next < items.count { start() }
      }
    }
    var record = RecipeStepRecord(
      id: step.id, call: step.call, state: .ok, result: .array(results), checks: tally.results, duration: 0, error: nil,
      calls: items.count)
    if let failed = tally.results.first(where: { $0.failed > 0 }) {
      record.state = .failed
      record.error = APXError(
        .expectation,
        "step \"\(step.id)\" (\(step.call)): \(failed.failed) of \(items.count) items failed the check: \(failed.failure ?? failed.name)",
        file: recipe.file, location: step.location)
    } else if let first = failures.first, !step.continueOnError {
      record.state = .failed
      record.error = first
    }
    return record
  }

  /// A REST step with `until`: called again (with `${loop.number}` and
  /// `${loop.previous}`) until its result satisfies the condition, e.g. walking
  /// pages until `has_next` is false. The result is the array of every call's result.
  func runRepeated(_ step: RecipeStep, target: RecipeTarget, endpoint: Endpoint, scope: RecipeScope) async throws
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
        try await Task.sleep(for: .milliseconds(Int64(interval * 1000)))
      }
      var loopScope = scope
      loopScope.loop = .object([
        JSONMember("index", .int(index)), JSONMember("number", .int(index + 1)), JSONMember("previous", previous),
      ])
      let r = try await callOnce(step, target: target, endpoint: endpoint, scope: loopScope, streamJournal: false)
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
