#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A terminal's width in columns.
enum TerminalSize {
  /// `COLUMNS` when it holds a positive number, else the terminal's own width (`TIOCGWINSZ`),
  /// else 80 (a terminal that does not say, such as a bare pseudo-terminal).
  static func columns(fd: Int32, environment: [String: String]) -> Int {
    if let text = environment["COLUMNS"], let n = Int(text), (1...10_000).contains(n) { return n }
    var size = winsize()
    if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return 80
  }
}
