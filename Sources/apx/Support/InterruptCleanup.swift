import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closed) tidies before apx ends with the signal (exit 130 for
/// Ctrl-C, as the shell reports it): a progress bar on the terminal is erased, so the
/// shell's prompt starts on a clean line, and `-O`'s temporary file is removed, so an
/// interrupted download leaves neither a stray file nor a changed FILE.
///
/// The handler only calls async-signal-safe functions (`write`, `unlink`, `signal`,
/// `raise`) on state prepared beforehand: an atomic flag and a path copied into C memory.
enum InterruptCleanup {
  /// A progress bar is on stderr's line: the handler erases it.
  static let barShown = Atomic<Bool>(false)
  nonisolated(unsafe) private static var temporaryPath: UnsafeMutablePointer<CChar>?
  private static let installed = Atomic<Bool>(false)

  /// Says whether a bar is on screen now (the progress display, after each draw and clear).
  static func setBarShown(_ shown: Bool) {
    barShown.store(shown, ordering: .releasing)
  }

  /// The file to remove if apx is interrupted (`-O`'s temporary file), or nil for none.
  static func setTemporaryFile(_ path: String?) {
    let old = temporaryPath
    temporaryPath = path.map { strdup($0) }
    install()
    if let old { free(old) }
  }

  /// Installs the handler once. A signal apx ignores stays ignored: a recipe run ignores
  /// SIGINT and cancels its task instead, so the run can journal the interruption.
  static func install() {
    guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    for sig in [SIGINT, SIGTERM, SIGHUP] {
      let previous = signal(sig) { received in
        if InterruptCleanup.barShown.load(ordering: .acquiring) {
          let erase: StaticString = "\r\u{1B}[2K"
          _ = write(2, erase.utf8Start, erase.utf8CodeUnitCount)
        }
        if let path = InterruptCleanup.temporaryPath { unlink(path) }
        signal(received, SIG_DFL)
        raise(received)
      }
      if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
        signal(sig, SIG_IGN)
      }
    }
  }
}
