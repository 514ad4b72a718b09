/// The fields of a `multipart/form-data` body (RFC 7578): what the mock validates, and what
/// `apx mock --record` reads a request's credential fields from.
public enum MultipartBody {
  /// One field; `text` is nil for a file (a part with a `filename`).
  public struct Field: Sendable, Equatable {
    public var name: String
    public var text: String?

    public init(name: String, text: String?) {
      self.name = name
      self.text = text
    }
  }

  /// Why a body cannot be read as the multipart form its content type says it is.
  public struct Malformed: Error, Sendable, Equatable {
    public var message: String

    public init(message: String) { self.message = message }
  }

  /// The boundary a `multipart/form-data; boundary=...` content type names, nil for another type.
  public static func boundary(ofContentType type: String?) -> String? {
    guard let type else { return nil }
    let parts = type.split(separator: ";").map { $0.trimmingWhitespace() }
    guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
    return parameter("boundary", in: parts.dropFirst())
  }

  /// The value of `name=value` (quoted or not) among a header's parameters.
  public static func parameter(_ name: String, in parameters: some Sequence<String>) -> String? {
    for p in parameters {
      let pair = p.split(separator: "=", maxSplits: 1)
      guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == name else { continue }
      let value = pair[1].trimmingWhitespace()
      return value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2
        ? String(value.dropFirst().dropLast()) : value
    }
    return nil
  }

  /// The parts of a multipart body: each part's name from its `Content-Disposition`, and its
  /// content as text unless it carries a `filename`.
  public static func fields(_ body: [UInt8], boundary: String) throws(Malformed) -> [Field] {
    let delimiter = Array("\r\n--\(boundary)".utf8)
    // The first delimiter may open the body without the line break before it.
    let bytes = [13, 10] + body
    var positions: [Int] = []
    var i = 0
    while let at = find(delimiter, in: bytes, from: i) {
      positions.append(at)
      i = at + delimiter.count
    }
    guard positions.count >= 2 else { throw Malformed(message: "no part ends with the boundary \"\(boundary)\"") }
    var fields: [Field] = []
    for (start, end) in zip(positions, positions.dropFirst()) {
      var part = Array(bytes[(start + delimiter.count)..<end])
      guard let lineEnd = find([13, 10], in: part, from: 0) else {
        throw Malformed(message: "a boundary line does not end")
      }
      part.removeFirst(lineEnd + 2)
      guard let headerEnd = find([13, 10, 13, 10], in: [13, 10] + part, from: 0) else {
        throw Malformed(message: "a part's headers do not end with an empty line")
      }
      let headerText = String(decoding: part[..<max(0, headerEnd - 2)], as: UTF8.self)
      let content = Array(part[min(part.count, headerEnd + 2)...])
      var disposition: [String] = []
      for line in headerText.split(separator: "\r\n") {
        let pair = line.split(separator: ":", maxSplits: 1)
        if pair.count == 2, pair[0].trimmingWhitespace().lowercased() == "content-disposition" {
          disposition = pair[1].split(separator: ";").map { $0.trimmingWhitespace() }
        }
      }
      guard disposition.first?.lowercased() == "form-data", let name = parameter("name", in: disposition.dropFirst())
      else {
        throw Malformed(message: "a part has no Content-Disposition: form-data; name=\"...\"")
      }
      let isFile = parameter("filename", in: disposition.dropFirst()) != nil
      fields.append(Field(name: name, text: isFile ? nil : String(decoding: content, as: UTF8.self)))
    }
    guard bytes[(positions[positions.count - 1] + delimiter.count)...].starts(with: [45, 45]) else {
      throw Malformed(message: "the body does not end with the closing boundary \"--\(boundary)--\"")
    }
    return fields
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard let first = needle.first, haystack.count >= needle.count else { return nil }
    var i = start
    while i <= haystack.count - needle.count {
      if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
      i += 1
    }
    return nil
  }
}
