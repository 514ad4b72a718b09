/// How long a server a test starts (apx mock, the Python fixture servers, tinyproxy) may live.
///
/// A server normally stops when its test's body ends; this is the last resort for a test
/// process that died. It is measured from the server's start, so it must outlast the longest
/// test time limit (10 minutes): on a loaded 2-core machine a test's apx calls wait for child
/// slots, and a server that stopped at its own deadline first failed tests that were merely slow.
enum ServerLifetime {
  static let seconds: Double = 660
  /// The same, as a command-line argument (`--lifetime 660`).
  static var argument: String { String(Int(seconds)) }
}
