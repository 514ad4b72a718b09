extension APXError {
  /// The kinds of failure that code decides on (a hint rewritten for a typed URL, a page's
  /// failure that already names its request). Everything else is `.unclassified`: the
  /// status says how it ends, the text what happened.
  public enum Reason: Sendable, Hashable {
    /// Nothing decides on this failure beyond its status.
    case unclassified
    /// The registry has no API of the name asked for.
    case unknownAPI
    /// The server's host name does not resolve.
    case hostNotFound
    /// Nothing accepted the connection: no server listens on the port.
    case connectionRefused
    /// The server answered with a status the call does not accept; the message names the request.
    case unexpectedStatus(Int)
    /// `--until-event` was given and the answer is not an event stream; the message names the request.
    case notAnEventStream
    /// A proxy refused the request, could not be reached, or dropped the tunnel; the message
    /// names the proxy, not the target.
    case proxyFailed
    /// A plaintext server speaks only HTTP/2 without TLS (h2c); the same on every attempt.
    case h2cOnly
  }
}
