import NIOHTTP1

/// The reason phrase of a status code, for lines a user reads (`HTTP/1.1 404 Not Found`).
public enum HTTPStatusText {
  /// RFC 9110's phrase for `status`, as NIO knows it; empty for a code it does not name.
  public static func reason(_ status: Int) -> String { HTTPResponseStatus(statusCode: status).reasonPhrase }
}
