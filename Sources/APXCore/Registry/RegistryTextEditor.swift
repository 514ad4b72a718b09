/// Adds an endpoint to the text of an existing registry file without
/// reordering or reformatting anything already there: the new entry is
/// inserted before the closing brace of `endpoints`, indented like its
/// siblings and laid out by `RegistryLayout`. (`apx call URL --save`.)
public enum RegistryTextEditor {
  /// `text` with `endpoint` appended to its `endpoints` object. Throws
  /// `invalidDefinition` when the text is not JSON, has no `endpoints` object,
  /// or already defines an endpoint of that name. The caller should load the
  /// result with `RegistryLoader` before writing it.
  public static func adding(_ endpoint: Endpoint, to text: String, file: String) throws(APXError) -> String {
    let bytes = Array(text.utf8)
    let document: JSONDocument
    do {
      document = try JSONParser.parseDocument(bytes)
    } catch {
      throw APXError(
        .invalidDefinition, "invalid JSON: \(error.message)", hint: "fix the file before adding to it", file: file,
        location: error.location)
    }
    guard case .object(let endpoints)? = document.value["endpoints"],
      let start = document.locations[[.key("endpoints")]]
    else {
      throw APXError(
        .invalidDefinition, "the file has no \"endpoints\" object", hint: "add \"endpoints\": {} to it", file: file)
    }
    if endpoints.contains(where: { $0.key == endpoint.name }) {
      throw APXError(
        .invalidDefinition, "the file already defines an endpoint \"\(endpoint.name)\"",
        hint: "choose another name, or edit the existing entry", file: file,
        location: document.locations[[.key("endpoints"), .key(endpoint.name)]])
    }
    let open = offset(of: start, in: bytes)
    guard let close = matchingBrace(bytes, from: open) else {
      throw APXError(.invalidDefinition, "the \"endpoints\" object is not closed", file: file, location: start)
    }
    // Indentation: the first entry's column, else the "endpoints" line's indentation plus two.
    let baseIndent = lineIndent(bytes, at: open)
    var entryIndent = baseIndent + 2
    if let first = endpoints.first, let loc = document.locations[[.key("endpoints"), .key(first.key)]] {
      // The location is the value's; its key starts at the line's first non-blank column.
      entryIndent = lineIndent(bytes, at: offset(of: loc, in: bytes))
    }
    let depth = entryIndent / 2
    let rendered = RegistryLayout.render(
      RegistryWriter.endpoint(endpoint), depth: depth, path: ["endpoints", endpoint.name])
    // An indentation that is not a multiple of two is kept for the key; nested lines follow the layout.
    let entry = String(repeating: " ", count: entryIndent) + RegistryLayout.quoted(endpoint.name) + ": " + rendered
    var out = bytes
    if endpoints.isEmpty {
      let replacement = "{\n" + entry + "\n" + String(repeating: " ", count: baseIndent) + "}"
      out.replaceSubrange(open...close, with: Array(replacement.utf8))
    } else {
      var end = close
      while end > open, isWhitespace(bytes[end - 1]) { end -= 1 }
      out.insert(contentsOf: Array((",\n" + entry).utf8), at: end)
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The byte offset of a 1-based line and scalar column.
  static func offset(of location: SourceLocation, in bytes: [UInt8]) -> Int {
    var i = 0
    var line = 1
    while line < location.line, i < bytes.count {
      if bytes[i] == 0x0A { line += 1 }
      i += 1
    }
    var column = 1
    while column < location.column, i < bytes.count {
      i += 1
      while i < bytes.count, bytes[i] & 0xC0 == 0x80 { i += 1 }
      column += 1
    }
    return i
  }

  /// The offset of the brace closing the object that opens at `open`, skipping strings.
  static func matchingBrace(_ bytes: [UInt8], from open: Int) -> Int? {
    var depth = 0
    var i = open
    var inString = false
    while i < bytes.count {
      let b = bytes[i]
      if inString {
        if b == UInt8(ascii: "\\") {
          i += 1
        } else if b == UInt8(ascii: "\"") {
          inString = false
        }
      } else if b == UInt8(ascii: "\"") {
        inString = true
      } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
        depth += 1
      } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
        depth -= 1
        if depth == 0 { return i }
      }
      i += 1
    }
    return nil
  }

  /// The number of leading spaces of the line holding `offset`.
  static func lineIndent(_ bytes: [UInt8], at offset: Int) -> Int {
    var start = min(offset, bytes.count)
    while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
    var n = 0
    while start + n < bytes.count, bytes[start + n] == 0x20 { n += 1 }
    return n
  }

  static func isWhitespace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
}
