import APXCore

/// Polls an endpoint's declared fallback (e.g. `imports.status`) when its
/// event stream keeps failing: every `interval` seconds, printing each result
/// as an event, until the value at `until` equals one of `equals` (success)
/// or one of `fail_when` (`remoteFailure`; by default "failed" and "error").
struct SSEPollingFallback: Sendable {
  let executor: Executor
  let sleeper: any WatchSleeper
  let fallback: PollFallback
  /// The watched endpoint, `API.ENDPOINT`, for messages.
  let endpointName: String

  /// Values at `until` that mean failure when the registry declares no `fail_when`.
  static let defaultFailWhen: [JSONValue] = [.string("failed"), .string("error")]
  /// Poll failures in a row (network, timeout, 5xx) tolerated before giving up.
  static let maxFailuresInARow = 5

  func run(_ request: CallRequest, delivery: inout SSEDelivery, sink: any CallEventSink) async throws -> CallOutcome {
    let pollEndpoint = try Self.resolve(fallback.poll, in: request.api, watched: request.endpoint.name)
    let pollName = "\(request.api.name).\(pollEndpoint.name)"
    let until: JSONPath
    do {
      until = try JSONPath(parsing: fallback.until)
    } catch {
      throw APXError(
        .invalidDefinition,
        "the fallback's until path \"\(fallback.until)\" of \(endpointName) is not a valid jq-style path",
        hint: "write it like \".status\"", path: ".endpoints[\"\(request.endpoint.name)\"].fallback.until",
        cause: error.message)
    }
    let failWhen = fallback.failWhen.isEmpty ? Self.defaultFailWhen : fallback.failWhen
    // The poll takes the watched call's values that it declares (e.g. job_id), and the user's headers.
    let values = request.values.filter { pollEndpoint.param(named: $0.name) != nil }
    let pollRequest = CallRequest(
      api: request.api, endpoint: pollEndpoint, baseURL: request.baseURL, environmentName: request.environmentName,
      values: values, headers: request.headers, timeout: pollEndpoint.timeout,
      maxAttemptsOverride: request.maxAttemptsOverride)

    try sink.receive(.fellBackToPolling(endpoint: pollName, interval: fallback.interval))
    var failuresInARow = 0
    while true {
      let result: JSONValue
      let outcome: CallOutcome
      do {
        (result, outcome) = try await poll(pollRequest, name: pollName)
        failuresInARow = 0
      } catch let error as APXError where Self.isTransient(error) && failuresInARow < Self.maxFailuresInARow {
        failuresInARow += 1
        try sink.receive(
          .note("polling \(pollName) failed (\(error.message)); trying again in \(SSEWatch.seconds(fallback.interval))")
        )
        try await sleeper.sleep(seconds: fallback.interval)
        continue
      }
      let verdict = try delivery.deliverPoll(result, to: sink)
      let state = (try? until.selectValue(in: result)) ?? .null
      if failWhen.contains(state) {
        let detail = SSEFailureMessage.text(in: result).map { ": \($0)" } ?? ""
        throw APXError(
          .remoteFailure,
          "\(endpointName) reported a failure: \(pollName) says \(fallback.until) is \(state.compactJSON)\(detail)",
          hint: "the last poll result is the last line on stdout")
      }
      if fallback.equals.contains(state) || verdict == .stop { return outcome }
      try await sleeper.sleep(seconds: fallback.interval)
    }
  }

  /// One poll: the REST call (through the executor, so auth and retries
  /// apply as for `apx call`) with its body collected and parsed.
  private func poll(_ request: CallRequest, name: String) async throws -> (JSONValue, CallOutcome) {
    let collector = JSONCollectingSink()
    let outcome = try await executor.call(request, sink: collector)
    return (try collector.json(endpoint: name), outcome)
  }

  /// Failures worth another poll: the network, a timeout, a 5xx answer.
  static func isTransient(_ error: APXError) -> Bool {
    switch error.status {
    case .network, .timeout, .httpServerError: return true
    default: return false
    }
  }

  /// The fallback endpoint: `ENDPOINT` or `API.ENDPOINT` of the watched API.
  static func resolve(_ poll: String, in api: APIDefinition, watched: String) throws(APXError) -> Endpoint {
    if let endpoint = api.endpoint(named: poll) { return endpoint }
    if poll.hasPrefix(api.name + "."), let endpoint = api.endpoint(named: String(poll.dropFirst(api.name.count + 1))) {
      return endpoint
    }
    throw APXError(
      .invalidDefinition,
      "the polling fallback of \(api.name).\(watched) names \"\(poll)\", which \(api.name) does not define",
      hint: "a fallback polls an endpoint of the same API, e.g. \"imports.status\"",
      path: ".endpoints[\"\(watched)\"].fallback.poll")
  }
}
