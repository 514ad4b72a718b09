import APXCore

/// Faults a mock injects: delays, failures with `Retry-After`, and dropped SSE streams and
/// WebSocket connections.
///
/// The same settings come from flags (every request) and, per request, from the header
/// `X-Apx-Mock-Fault`: `;`-separated `KEY=VALUE` pairs, e.g. `latency=200+50; fail=503`:
/// - `latency=MS` or `latency=MS+RANDMS`: wait MS (plus up to RANDMS) before answering;
/// - `fail=STATUS`: answer STATUS (with `Retry-After`) instead of the endpoint's answer;
/// - `fail-rate=P`: fail a fraction P (0 to 1) of requests with `fail-status`;
/// - `fail-status=STATUS`: the status of `fail-rate`'s failures (503 by default);
/// - `retry-after=SECONDS`: the `Retry-After` of failures (1 by default);
/// - `drop-every=N`: an SSE stream or a WebSocket connection is cut after every N events or messages;
/// - `drop-mode=close|abort`: how an SSE stream is dropped: its end sent (`close`), or the
///   connection cut in the middle of the body (`abort`), as a crashed server or proxy does;
/// - `grpc-status=CODE`: a gRPC call fails with this status code (0 to 16) instead of the one
///   gRPC maps the failure's HTTP status to;
/// - `after-headers=true`: a gRPC failure follows response headers, as grpcio servers send it;
/// - `token-lifetime=SECONDS`: on a token request, the lifetime of the token it issues.
public struct MockFaults: Sendable, Equatable {
  /// Fixed delay in milliseconds.
  public var latency: Int = 0
  /// Up to this many more milliseconds, drawn per request.
  public var jitter: Int = 0
  /// Fraction of requests that fail (0 to 1).
  public var failRate: Double = 0
  /// The status of failures.
  public var failStatus: Int = 503
  /// Fail this request with this status (the header's `fail=`).
  public var failNow: Int?
  /// `Retry-After` seconds on failures.
  public var retryAfter: Int = 1
  /// Cut SSE streams and WebSocket connections after every N events or messages; 0 never.
  public var dropEvery: Int = 0
  /// How a stream is dropped.
  public var dropMode: DropMode = .close
  /// A gRPC call fails with this status code.
  public var grpcStatus: Int?
  /// A gRPC failure follows response headers rather than coming alone.
  public var afterHeaders = false
  /// The lifetime of a token this token request issues, instead of `--token-lifetime`'s.
  public var tokenLifetime: Int?

  /// No faults.
  public init() {}

  /// Why a fault setting cannot be read.
  public struct SyntaxError: Error, Sendable, Equatable {
    public var message: String
  }

  /// `MS` or `MS+RANDMS`, as `--latency` and `latency=` take it.
  public static func latency(_ text: String) throws(SyntaxError) -> (Int, Int) {
    let parts = text.split(separator: "+", omittingEmptySubsequences: false)
    guard parts.count <= 2, let fixed = Int(parts[0]), fixed >= 0, fixed <= 600_000,
      let extra = parts.count == 2 ? Int(parts[1]) : 0, extra >= 0, extra <= 600_000
    else {
      throw SyntaxError(message: "latency \"\(text)\" is not MS or MS+RANDMS (0 to 600000 milliseconds)")
    }
    return (fixed, extra)
  }

  /// These settings with the header's pairs applied on top.
  public func applying(header: String) throws(SyntaxError) -> MockFaults {
    var out = self
    var setsDropMode = false
    for pair in header.split(separator: ";") {
      let trimmed = pair.trimmingWhitespace
      if trimmed.isEmpty { continue }
      let parts = trimmed.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { throw SyntaxError(message: "\"\(trimmed)\" is not KEY=VALUE") }
      let key = parts[0].trimmingWhitespace
      let value = parts[1].trimmingWhitespace
      switch key {
      case "latency": (out.latency, out.jitter) = try Self.latency(value)
      case "fail": out.failNow = try Self.status(value, key)
      case "fail-status": out.failStatus = try Self.status(value, key)
      case "fail-rate":
        guard let p = Double(value), (0...1).contains(p) else {
          throw SyntaxError(message: "fail-rate \"\(value)\" is not a number from 0 to 1")
        }
        out.failRate = p
      case "retry-after":
        guard let n = Int(value), (0...86_400).contains(n) else {
          throw SyntaxError(message: "retry-after \"\(value)\" is not 0 to 86400 seconds")
        }
        out.retryAfter = n
      case "drop-every":
        guard let n = Int(value), n >= 0 else { throw SyntaxError(message: "drop-every \"\(value)\" is not a count") }
        out.dropEvery = n
      case "drop-mode":
        guard let mode = DropMode(rawValue: value) else {
          throw SyntaxError(message: "drop-mode \"\(value)\" is not close or abort")
        }
        out.dropMode = mode
        setsDropMode = true
      case "grpc-status":
        guard let n = Int(value), (1...16).contains(n) else {
          throw SyntaxError(message: "grpc-status \"\(value)\" is not a gRPC error code (1 to 16)")
        }
        out.grpcStatus = n
      case "after-headers":
        guard let b = Bool(value) else { throw SyntaxError(message: "after-headers \"\(value)\" is not true or false") }
        out.afterHeaders = b
      case "token-lifetime":
        guard let n = Int(value), (0...1_000_000_000).contains(n) else {
          throw SyntaxError(message: "token-lifetime \"\(value)\" is not 0 to 1000000000 seconds")
        }
        out.tokenLifetime = n
      default:
        throw SyntaxError(
          message:
            "unknown fault \"\(key)\" (known: latency, fail, fail-rate, fail-status, retry-after, drop-every, "
            + "drop-mode, grpc-status, after-headers, token-lifetime)")
      }
    }
    // A mode with nothing to drop would be accepted and then do nothing.
    if setsDropMode, out.dropEvery == 0 {
      throw SyntaxError(message: "drop-mode says how drop-every drops a stream: give drop-every=N with it")
    }
    return out
  }

  /// What these faults do to request `number` of a run seeded with `seed`: its delay in
  /// milliseconds, and the status it fails with, if any. The same seed and number draw the same.
  public func draw(seed: UInt64, number: Int) -> (delay: Int, failStatus: Int?) {
    var dice = SeededRandom(seed: seed, key: "fault \(number)")
    let delay = latency + (jitter > 0 ? Int(dice.next() % UInt64(jitter + 1)) : 0)
    let failStatus =
      failNow ?? (failRate > 0 && Double(dice.next() % 1_000_000) / 1_000_000 < failRate ? self.failStatus : nil)
    return (delay, failStatus)
  }

  static func status(_ text: String, _ key: String) throws(SyntaxError) -> Int {
    guard let n = Int(text), (400...599).contains(n) else {
      throw SyntaxError(message: "\(key) \"\(text)\" is not an error status (400 to 599)")
    }
    return n
  }
}

extension StringProtocol {
  /// APXCore's `trimmingWhitespace()`, as the mock's parsers write it.
  var trimmingWhitespace: String { trimmingWhitespace() }
}

/// How a mock drops an event stream (`--drop-mode`, `drop-mode=`).
public enum DropMode: String, Sendable, Equatable, CaseIterable {
  /// The response ends properly (the last chunk is sent), then the connection closes.
  case close
  /// The connection is cut in the middle of the response body, without its last chunk.
  case abort
}
