import APXCore

/// Reads a job's progress out of stream items (an SSE event's data, a poll
/// result, a gRPC response message), at the jq-style paths an endpoint
/// declares (`"progress": {"fraction": ".progress", "done": ...}`).
struct StreamProgressReader: Sendable {
  let fraction: JSONPath?
  let done: JSONPath?
  let total: JSONPath?

  /// Parses the declared paths.
  /// - Throws: `APXError` (`.invalidDefinition`) naming the bad path.
  init(_ fields: ProgressFields, endpoint: String) throws(APXError) {
    func parse(_ text: String?, _ key: String) throws(APXError) -> JSONPath? {
      guard let text else { return nil }
      do {
        return try JSONPath(parsing: text)
      } catch {
        throw APXError(
          .invalidDefinition, "the progress path \"\(text)\" of \(endpoint) is not a valid jq-style path",
          hint: "write it like \".progress\" or \".job.done\"", path: ".endpoints[\"\(endpoint)\"].progress.\(key)",
          cause: error.message)
      }
    }
    fraction = try parse(fields.fraction, "fraction")
    done = try parse(fields.done, "done")
    total = try parse(fields.total, "total")
  }

  /// The progress in `value` (an event's data, a poll result or a message), or nil when
  /// none of the declared fields holds a number. The fraction is computed
  /// from done/total when only those are present.
  func read(_ value: JSONValue) -> CallEvent? { readAll(value).event }

  /// The progress in `value`, and whether every declared path held a number there (a gRPC
  /// message printed without its default values may lack some).
  func readAll(_ value: JSONValue) -> (event: CallEvent?, complete: Bool) {
    let doneValue = Self.number(done, in: value)
    let totalValue = Self.number(total, in: value)
    var fractionValue = Self.number(fraction, in: value)
    let complete =
      (fraction == nil || fractionValue != nil) && (done == nil || doneValue != nil)
      && (total == nil || totalValue != nil)
    if fractionValue == nil, let doneValue, let totalValue, totalValue > 0 {
      fractionValue = doneValue / totalValue
    }
    if fractionValue == nil, doneValue == nil, totalValue == nil { return (nil, complete) }
    return (.progress(fraction: fractionValue, done: doneValue, total: totalValue), complete)
  }

  /// A finite number (or numeric string) at `path`; nil when absent or not a number.
  private static func number(_ path: JSONPath?, in value: JSONValue) -> Double? {
    guard let path, let found = try? path.selectValue(in: value) else { return nil }
    let number: Double?
    switch found {
    case .number: number = found.doubleValue
    case .string(let text): number = Double(text)
    default: number = nil
    }
    guard let number, number.isFinite else { return nil }
    return number
  }
}
