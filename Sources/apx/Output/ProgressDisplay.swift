import APXCore
import APXRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Draws a long job's progress on stderr — a one-line bar with percent,
/// counts, rate and ETA, or a state such as "reconnecting in 5s…" or
/// "polling every 10s" — redrawn in place.
///
/// It draws only when stderr is a terminal; otherwise every method returns at
/// once and stderr gets only the printer's plain notes. `CallPrinter` calls
/// `willHandle` before it writes anything for an event (the bar is cleared so
/// that notes, and stdout lines on a shared terminal, never mix with it) and
/// `didHandle` after (the bar is brought back).
final class ProgressDisplay: @unchecked Sendable {
  /// Whether anything is ever drawn (stderr is a terminal).
  let enabled: Bool
  private let stderr: OutputStream
  /// stdout writes to the same terminal: clear the bar before each stdout write.
  private let stdoutIsTerminal: Bool
  /// `-v`: request and response lines go to stderr, so the bar is cleared before them.
  private let verbose: Bool
  private let clock = ContinuousClock()
  private let started: ContinuousClock.Instant
  /// Minimum seconds between two redraws caused by progress updates.
  static let redrawInterval = 0.1
  private var model = ProgressLine()
  /// Recent samples for the rate and ETA.
  private var samples = ProgressSamples()
  private var visible = false
  private var lastDraw = -Double.infinity

  /// Makes a display for `stderr`; `enabled` only when stderr is a terminal.
  init(stderr: OutputStream, enabled: Bool, stdoutIsTerminal: Bool, verbose: Bool = false) {
    self.stderr = stderr
    self.enabled = enabled
    self.stdoutIsTerminal = stdoutIsTerminal
    self.verbose = verbose
    self.started = clock.now
  }

  deinit { finish() }

  /// Clears the bar before the printer writes what `event` shows.
  func willHandle(_ event: CallEvent) {
    guard enabled, visible else { return }
    switch event {
    case .progress, .bodySent:
      return
    case .message, .bodyChunk, .bodyEnd, .batchEnd:
      if stdoutIsTerminal { clear() }
    case .requestSent, .responseHead, .trailers:
      // Shown only with -v: without it nothing is written, so the bar stays (a paginated
      // call sends one request per page; clearing for each made the bar flicker).
      if verbose { clear() }
    default:
      clear()
    }
  }

  /// Updates the bar or state from `event` and redraws it.
  func didHandle(_ event: CallEvent) {
    guard enabled else { return }
    let now = seconds()
    switch event {
    case .progress(let fraction, let done, let total):
      model.fraction = fraction.map { min(max($0, 0), 1) } ?? model.fraction
      model.done = done ?? model.done
      model.total = total ?? model.total
      model.reconnecting = nil
      record(now: now, done: done, fraction: fraction)
      draw(now: now, force: model.fraction == 1)
    case .reconnecting(let after, _, let lastEventID):
      model.reconnecting = (after, lastEventID)
      draw(now: now, force: true)
    case .fellBackToPolling(let endpoint, let interval):
      model.reconnecting = nil
      model.polling = (endpoint, interval)
      draw(now: now, force: true)
    case .responseHead(let status, _, _):
      // Connected again: the stream has resumed.
      if (200..<300).contains(status) { model.reconnecting = nil }
      if model.hasContent { draw(now: now, force: true) }
    case .finished where stdoutIsTerminal:
      // The call's last output (a stream's table, a failure's body) is on the same screen; a
      // bar drawn again after it would stay there under the result. With stdout elsewhere,
      // the finished bar stays on its own line (`default`).
      return
    default:
      if !visible, model.hasContent { draw(now: now, force: !(stdoutIsTerminal && Self.writesStdout(event))) }
    }
  }

  /// A body's bytes so far, and its length when announced: a bar in bytes (`12.5 MB/40 MB`).
  func transfer(bytes: Int, total: Int?) {
    guard enabled else { return }
    let now = seconds()
    model.bytes = true
    model.done = Double(bytes)
    model.total = total.map(Double.init)
    model.fraction = total.flatMap { $0 > 0 ? min(1, Double(bytes) / Double($0)) : nil }
    record(now: now, done: model.done, fraction: model.fraction)
    draw(now: now, force: model.fraction == 1)
  }

  /// Ends a transfer's bar (an upload, once its answer comes): it is erased, and the next
  /// bar (the download) starts afresh.
  func endTransfer() {
    guard enabled else { return }
    if visible { clear() }
    model = ProgressLine()
    samples = ProgressSamples()
  }

  /// Ends the display: a finished bar stays on its own line, anything else is cleared.
  func finish() {
    guard enabled, visible else { return }
    if model.fraction == 1 {
      stderr.write("\n")
      stderr.flush()
      visible = false
      InterruptCleanup.setBarShown(false)
    } else {
      clear()
    }
  }

  // MARK: - Drawing

  private static func writesStdout(_ event: CallEvent) -> Bool {
    switch event {
    case .message, .bodyChunk, .bodyEnd: return true
    default: return false
    }
  }

  private func seconds() -> Double {
    let elapsed = clock.now - started
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  private func record(now: Double, done: Double?, fraction: Double?) {
    // A sample that measures nothing (a `queued` event may carry just the total) keeps the rate.
    guard done != nil || fraction != nil else { return }
    (model.rate, model.eta) = samples.record(now: now, done: done, fraction: fraction, total: model.total)
  }

  private func draw(now: Double, force: Bool) {
    guard model.hasContent else { return }
    if !force, now - lastDraw < Self.redrawInterval { return }
    lastDraw = now
    let text = model.render(width: Self.terminalColumns() - 1)
    if !visible { InterruptCleanup.install() }
    stderr.write("\r\u{1B}[2K" + text)
    stderr.flush()
    visible = true
    InterruptCleanup.setBarShown(true)
  }

  private func clear() {
    stderr.write("\r\u{1B}[2K")
    stderr.flush()
    visible = false
    InterruptCleanup.setBarShown(false)
  }

  /// The width of the terminal on stderr (80 when unknown).
  static func terminalColumns() -> Int {
    var size = winsize()
    if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return 80
  }
}
