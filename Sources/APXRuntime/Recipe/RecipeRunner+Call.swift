import APXCore
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension RecipeRunner {
  /// One check's outcome for one call.
  struct CheckOutcome: Sendable {
    var name: String
    var passed: Bool
    var failure: String?
  }

  /// What one call of a step produced.
  struct CallResult: Sendable {
    /// The call's result, typed.
    var call: RecipeCallResult
    /// `call.json`, which checks, captures and later steps read.
    var result: JSONValue
    var checks: [CheckOutcome]
  }

  /// Renders the step's parameters in `scope`, calls the endpoint, and
  /// builds the result with captures and checks. The call's retries,
  /// reconnects, fallbacks and progress go to `notes` and the observer.
  func callOnce(
    _ step: RecipeStep, target: RecipeTarget, endpoint: Endpoint, scope: RecipeScope, streamJournal: Bool,
    notes: StepNotes, item: Int? = nil
  ) async throws -> CallResult {
    let request = try makeRequest(
      step, target: target, endpoint: endpoint, scope: scope,
      resumeFrom: streamJournal ? resume?.partialEvents[step.id] : nil)
    if let journal = self.journal, Self.recordsStart(step, api: target.api) {
      // Written before the call goes out: a resume that finds no outcome after it will not send it again.
      // A plain step's line is forced to disk; a loop item's is written (an OS crash can lose it, as
      // it can the last batch of finished items).
      let more = step.batch.isEmpty ? "" : " and \(step.batch.count) more"
      try journal.append(
        .started(step: step.id, index: item, request: "\(endpoint.method) \(endpoint.path)" + more), sync: item == nil)
    }
    let retention = (laterRetention[step.id] ?? .none).union(recipe.ownRetention(of: step))
    let shape = step.resultShape(of: endpoint)
    let isStream = shape.stream
    let untilCheck: (@Sendable (JSONValue) throws -> Bool)?
    if isStream, let until = step.until {
      untilCheck = { item in try RecipeCheckEvaluator.holds(until, on: item, resolve: scope.resolve) }
    } else {
      untilCheck = nil
    }
    let journal = streamJournal ? self.journal : nil
    let observer = self.observer
    let stepID = step.id
    let resumed = streamJournal ? (resume?.partialEvents[step.id] ?? []) : []
    let counter = isStream ? ItemCounter(start: resumed.count) : nil
    var onItem: (@Sendable (JSONValue) -> Void)?
    if isStream {
      onItem = { (item: JSONValue) -> Void in
        // A failed write is kept by the journal and stops the run when the step ends.
        try? journal?.append(.event(step: stepID, item: item))
        observer?.streamItem(step, item: item)
        if let n = counter?.increment() { observer?.stepProgress(step, done: n, total: nil) }
      }
    }
    let capture = StepCapture(
      keepBody: retention != .none && shape.body == .responseBytes, keepEvents: retention.keeps("events"),
      resumed: resumed, resumedEventID: Self.lastEventID(in: resumed), until: untilCheck, onItem: onItem,
      onNote: { note in
        notes.add(note)
        observer?.callNote(step, note: note)
      }, onUpload: { bytes, total in observer?.bodySent(step, bytes: bytes, total: total) },
      transportLog: options.transportLog)
    var status: Int?
    do {
      if step.all {
        status = try await Paginator(executor: executor, maxItems: step.maxItems).call(request, sink: capture).status
      } else if step.batch.isEmpty {
        status = try await executor.call(request, sink: capture).status
      } else {
        let requests = try [request] + batchRequests(step, target: target, scope: scope)
        status = try await executor.call(batch: requests, sink: capture).status
      }
    } catch is StepCapture.UntilReached {
      status = nil
    }
    try Task.checkCancellation()
    var call = capture.result(shape: shape, status: status ?? (isStream ? 200 : nil))
    var result = call.json
    if !step.capture.isEmpty {
      // Captures read the result without them; encoded again only for steps that capture.
      call.captures = step.capture.map { c in
        JSONMember(c.name, ((try? c.path.selectValue(in: result)) ?? nil) ?? .null)
      }
      result = call.json
    }
    return CallResult(call: call, result: result, checks: try evaluateExpect(step, result: result, scope: scope))
  }

  /// The requests of a batch step's further calls (`batch`), rendered in `scope`.
  func batchRequests(_ step: RecipeStep, target: RecipeTarget, scope: RecipeScope) throws(APXError) -> [CallRequest] {
    var requests: [CallRequest] = []
    for member in step.batch {
      guard let endpoint = target.api.endpoint(named: member.endpoint) else {
        throw APXError(.invalidDefinition, "the API \(target.api.name) has no endpoint \"\(member.endpoint)\"")
      }
      var request = try makeRequest(member, target: target, endpoint: endpoint, scope: scope, resumeFrom: nil)
      request.timeout = step.timeout ?? options.timeout
      request.maxAttemptsOverride = step.retry ?? options.maxAttemptsOverride
      requests.append(request)
    }
    return requests
  }

  /// The step's `expect` on one result.
  func evaluateExpect(_ step: RecipeStep, result: JSONValue, scope: RecipeScope) throws -> [CheckOutcome] {
    guard let expect = step.expect else { return [] }
    var out: [CheckOutcome] = []
    if let allowed = expect.status {
      let status = result["status"]?.intValue
      let name =
        "status is "
        + (allowed.count == 1 ? "\(allowed[0])" : "one of \(allowed.map(String.init).joined(separator: ", "))")
      let passed = status.map(allowed.contains) ?? false
      out.append(
        CheckOutcome(
          name: name, passed: passed,
          failure: passed
            ? nil
            : "status is \(status.map(String.init) ?? "missing"), expected \(allowed.map(String.init).joined(separator: " or "))"
        ))
    }
    for check in expect.checks {
      let o = try RecipeCheckEvaluator.evaluate(check, on: result, resolve: scope.resolve)
      out.append(CheckOutcome(name: check.summary, passed: o.passed, failure: o.failure))
    }
    return out
  }

  /// The call request for one execution of `step` in `scope`.
  func makeRequest(
    _ step: RecipeStep, target: RecipeTarget, endpoint: Endpoint, scope: RecipeScope, resumeFrom: [JSONValue]?
  ) throws(APXError) -> CallRequest {
    var endpoint = endpoint
    if let allowed = step.expect?.status {
      // Statuses the step expects are answers to check, not transport failures.
      let base = endpoint.expectStatus ?? Array(200..<300)
      endpoint.expectStatus = Array(Set(base + allowed)).sorted()
    }
    var values: [(name: String, value: BoundValue)] = []
    for member in step.with {
      let rendered: JSONValue
      do {
        rendered = try Template.renderStrings(in: member.value, resolve: scope.resolve)
      } catch {
        var e = error
        e.message = "with.\(member.key): " + e.message
        throw e
      }
      if rendered == .null { continue }  // an unset optional input leaves the parameter out
      if let param = endpoint.param(named: member.key), param.type == .file, case .string(let path) = rendered {
        values.append((member.key, .file(path: resolvePath(path))))
      } else {
        values.append((member.key, .json(rendered)))
      }
    }
    var headers = options.headers
    for member in step.headers {
      let text = try Template.renderStrings(in: member.value, resolve: scope.resolve)
      headers.append(HeaderField(member.key, Template.interpolated(text)))
    }
    if let events = resumeFrom, let id = Self.lastEventID(in: events) {
      // The SSE watch sends request headers on connect: resume where the interrupted run stopped.
      headers.append(HeaderField("Last-Event-ID", id))
    }
    var data: RequestBuilder.DataBody?
    if let body = step.body {
      let rendered = try Template.renderStrings(in: body, resolve: scope.resolve)
      data = .json(Array(rendered.compactJSON.utf8))
    }
    return CallRequest(
      api: target.api, endpoint: endpoint,
      baseURL: !endpoint.kind.isHTTPRequest ? target.grpcBaseURL ?? target.baseURL : target.baseURL,
      environmentName: target.environmentName,
      values: values, data: data, headers: headers, timeout: step.timeout ?? options.timeout, maxEvents: step.maxEvents,
      maxAttemptsOverride: step.retry ?? options.maxAttemptsOverride)
  }

  /// A relative path that does not exist from the working directory is tried next to the recipe.
  func resolvePath(_ path: String) -> String { RecipePaths.resolve(path, recipeDirectory: recipeDirectory) }

  /// The id of the last SSE event among journaled items.
  static func lastEventID(in items: [JSONValue]) -> String? {
    for item in items.reversed() {
      if case .string(let id)? = item["id"], !id.isEmpty { return id }
    }
    return nil
  }
}

/// Counts stream items across tasks for progress.
final class ItemCounter: Sendable {
  private let value: Mutex<Int>
  init(start: Int) { value = Mutex(start) }
  func increment() -> Int {
    value.withLock {
      $0 += 1; return $0
    }
  }
}

/// File paths in recipes.
enum RecipePaths {
  /// A relative path that does not exist from the working directory is tried next to the recipe.
  static func resolve(_ path: String, recipeDirectory: String?) -> String {
    guard !path.hasPrefix("/"), let recipeDirectory, !FileManager.default.fileExists(atPath: path) else { return path }
    let candidate = recipeDirectory + "/" + path
    return FileManager.default.fileExists(atPath: candidate) ? candidate : path
  }
}
