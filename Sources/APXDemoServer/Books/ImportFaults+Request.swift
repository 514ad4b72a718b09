import Hummingbird

extension ImportFaults {
  /// Faults chosen by query parameters (`row_delay_ms`, `drop_every`, `drop_mode`,
  /// `refuse_stream`, `fail_at`, `ignore_last_event_id`) or the matching `X-Demo-*` headers; the query wins.
  init(request: Request, defaultRowDelay: Double) throws {
    func value(_ query: String, _ header: String) -> String? {
      request.query(query) ?? request.header(header)
    }
    func number(_ query: String, _ header: String, in range: ClosedRange<Double>) throws -> Double? {
      guard let text = value(query, header) else { return nil }
      guard let number = Double(text), range.contains(number) else {
        throw DemoError.badRequest(
          "invalid_parameter",
          "'\(query)' must be a number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
      }
      return number
    }

    let delayMs = try number("row_delay_ms", "X-Demo-Row-Delay-Ms", in: 0...60_000)
    self.init(rowDelay: delayMs.map { $0 / 1000 } ?? defaultRowDelay)
    if let every = try number("drop_every", "X-Demo-Drop-Every", in: 1...1_000_000) {
      guard every == every.rounded() else {
        throw DemoError.badRequest("invalid_parameter", "'drop_every' must be a whole number")
      }
      dropEvery = Int(every)
    }
    if let mode = value("drop_mode", "X-Demo-Drop-Mode") {
      guard mode == "close" || mode == "abort" else {
        throw DemoError.badRequest("invalid_parameter", "'drop_mode' must be 'close' or 'abort', got '\(mode)'")
      }
      abortOnDrop = mode == "abort"
    }
    let refuse = request.uri.queryParameters["refuse_stream"].map(String.init) ?? request.header("X-Demo-Refuse-Stream")
    if let refuse {
      refuseStream = !["0", "false", "no"].contains(refuse.lowercased())
    }
    failAt = try number("fail_at", "X-Demo-Fail-At", in: 0...1)
    if let replay = value("ignore_last_event_id", "X-Demo-Ignore-Last-Event-Id") {
      ignoreLastEventID = !["0", "false", "no"].contains(replay.lowercased())
    }
  }
}
