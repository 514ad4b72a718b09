import APXCore

/// The fields of a form body, `application/x-www-form-urlencoded` or `multipart/form-data`
/// (RFC 7578), for checking an endpoint's `form` and `multipart` parameters.
struct FormFields: Sendable {
  typealias Field = MultipartBody.Field
  typealias Malformed = MultipartBody.Malformed

  var fields: [Field]

  /// The text values of field `name`, in order.
  func values(_ name: String) -> [String] { fields.filter { $0.name == name }.compactMap(\.text) }

  /// Whether any field, text or file, is named `name`.
  func contains(_ name: String) -> Bool { fields.contains { $0.name == name } }

  /// The fields of `request`'s body; nil when its content type is neither form type.
  static func read(_ request: MockRequest) throws(Malformed) -> FormFields? {
    guard let type = request.header("content-type") else { return nil }
    let parts = type.split(separator: ";").map { $0.trimmingWhitespace() }
    switch parts.first?.lowercased() {
    case "application/x-www-form-urlencoded":
      let text = String(decoding: request.body, as: UTF8.self)
      return FormFields(fields: MockRequest.queryPairs(text).map { Field(name: $0.name, text: $0.value) })
    case "multipart/form-data":
      guard let boundary = MultipartBody.parameter("boundary", in: parts.dropFirst()), !boundary.isEmpty else {
        throw Malformed(message: "multipart/form-data without a boundary")
      }
      return FormFields(fields: try MultipartBody.fields(request.body, boundary: boundary))
    default:
      return nil
    }
  }
}
