import Hummingbird

/// Builders for the demo server's responses.
enum DemoResponse {
  /// A JSON response whose body is `value`'s compact text.
  static func json(_ value: JSONText, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:])
    -> Response
  {
    text(value.compact, contentType: "application/json; charset=utf-8", status: status, headers: headers)
  }

  /// A response with a fixed body and content type.
  static func text(
    _ body: String, contentType: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
  ) -> Response {
    var fields = headers
    fields[.contentType] = contentType
    return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
  }

  /// An empty response (e.g. 204 No Content).
  static func empty(_ status: HTTPResponse.Status) -> Response {
    Response(status: status)
  }
}
