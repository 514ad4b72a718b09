/// Streams a response body through `JSONStreamFormatter`, or, when the body
/// turns out not to be JSON, hands back the bytes exactly as received: never
/// a re-formatted prefix followed by raw bytes.
///
/// Formatted output is held back, together with the raw bytes, until the
/// first complete JSON text or `holdLimit` bytes. So an HTML page, `{not json`
/// or a short truncated document is recognised before anything is written,
/// and a live NDJSON stream still shows each line as soon as it is complete.
/// Only a body that breaks after that point (a large document cut short, a
/// JSON text followed by garbage) ends as `.broken`: the formatted output
/// stops at the error.
public struct JSONBodyRelay: Sendable {
  /// What the caller writes and does next.
  public enum Step: Sendable, Equatable {
    /// Carry on: `out` got the formatted output available so far (maybe none).
    case formatted
    /// Not JSON, found while output was held: `out` got every byte received so
    /// far, unchanged. Write later chunks unchanged too.
    case raw(JSONSyntaxError)
    /// Not JSON after formatted output was released: `out` got the formatted
    /// output up to the error, and nothing more should be written.
    case broken(JSONSyntaxError)
  }

  /// The default bound on held bytes (1 MiB): memory stays small, and error
  /// pages are far shorter.
  public static let defaultHoldLimit = 1 << 20

  private var formatter: JSONStreamFormatter
  private let holdLimit: Int
  /// The raw bytes received while output is held; nil once released.
  private var held: [UInt8]? = []
  /// Formatted output not yet released.
  private var pending: [UInt8] = []
  private var failure: JSONSyntaxError?

  /// Makes a relay around `formatter`.
  public init(formatter: JSONStreamFormatter, holdLimit: Int = JSONBodyRelay.defaultHoldLimit) {
    self.formatter = formatter
    self.holdLimit = max(0, holdLimit)
  }

  /// Formats `chunk`, appending what may be written now to `out`.
  public mutating func feed(_ chunk: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Step {
    if let failure { return .broken(failure) }
    guard var raw = held else {
      do {
        try formatter.feed(chunk, into: &out)
      } catch {
        failure = error
        return .broken(error)
      }
      return .formatted
    }
    held = nil  // keep `raw` uniquely referenced while appending
    raw.append(contentsOf: chunk)
    do {
      try formatter.feed(chunk, into: &pending)
    } catch {
      failure = error
      pending = []
      out.append(contentsOf: raw)
      return .raw(error)
    }
    if formatter.documentCount > 0 || raw.count > holdLimit {
      out.append(contentsOf: pending)
      pending = []
    } else {
      held = raw
    }
    return .formatted
  }

  /// Ends the body, appending the rest of the output to `out`.
  public mutating func finish(into out: inout [UInt8]) -> Step {
    if let failure { return .broken(failure) }
    guard let raw = held else {
      do {
        try formatter.finish(into: &out)
      } catch {
        failure = error
        return .broken(error)
      }
      return .formatted
    }
    held = nil
    do {
      try formatter.finish(into: &pending)
    } catch {
      failure = error
      pending = []
      out.append(contentsOf: raw)
      return .raw(error)
    }
    out.append(contentsOf: pending)
    pending = []
    return .formatted
  }
}
