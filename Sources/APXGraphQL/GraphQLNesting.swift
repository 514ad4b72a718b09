import APXCore

/// GraphQLSwift's parser descends once per nesting level (`{`, `[`, `(`) and has no limit of its
/// own, so a deeply nested document would exhaust the stack. Documents are measured first, in
/// one pass that skips strings, block strings and comments as the lexer does.
enum GraphQLNesting {
  /// The deepest nesting accepted: far beyond any real selection set, well within the stack.
  static let limit = 128

  /// Throws a usage error at the first place nesting goes past `limit`.
  static func check(_ text: String, origin: String) throws(APXError) {
    let bytes = Array(text.utf8)
    var depth = 0
    var line = 1
    var lineStart = 0
    var i = 0
    func at(_ offset: Int, _ string: String) -> Bool {
      let s = Array(string.utf8)
      return offset + s.count <= bytes.count && Array(bytes[offset..<offset + s.count]) == s
    }
    while i < bytes.count {
      let b = bytes[i]
      switch b {
      case UInt8(ascii: "\n"):
        line += 1
        lineStart = i + 1
      case UInt8(ascii: "#"):
        while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
        continue
      case UInt8(ascii: "\""):
        if at(i, "\"\"\"") {
          i += 3
          while i < bytes.count, !at(i, "\"\"\"") {
            if at(i, "\\\"\"\"") { i += 4; continue }
            if bytes[i] == UInt8(ascii: "\n") {
              line += 1
              lineStart = i + 1
            }
            i += 1
          }
          i += 3
          continue
        }
        i += 1
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\n") {
          i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
        }
      case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
        depth += 1
        if depth > limit {
          let column = String(decoding: bytes[lineStart..<i], as: UTF8.self).count + 1
          throw APXError(
            .usage,
            "\(origin): the GraphQL document nests deeper than \(limit) levels (at line \(line), column \(column))",
            hint: "no real operation nests that deep: check the document")
        }
      case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
        depth = max(0, depth - 1)
      default:
        break
      }
      i += 1
    }
  }
}
