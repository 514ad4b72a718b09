/// Finds the `rel="next"` target in `Link` header values (RFC 8288).
///
/// Written by hand: no library on the mirror list parses Link headers, and the
/// grammar needed is small (comma-separated `<URI>` entries with `;`-separated
/// parameters, quoted strings possibly holding `,` or `;`).
public enum LinkHeader {
  /// The URI reference of the first link whose `rel` includes `next` (relations are
  /// space-separated and compared case-insensitively), as written (maybe relative).
  public static func next(in values: [String]) -> String? {
    for value in values {
      for link in links(in: value) where link.relations.contains("next") { return link.target }
    }
    return nil
  }

  /// The links of one header value: each target with its lower-cased relation types.
  static func links(in value: String) -> [(target: String, relations: [String])] {
    var result: [(target: String, relations: [String])] = []
    var rest = Substring(value)
    while let open = rest.firstIndex(of: "<") {
      guard let close = rest[open...].firstIndex(of: ">") else { break }
      let target = String(rest[rest.index(after: open)..<close])
      rest = rest[rest.index(after: close)...]
      var relations: [String] = []
      // Parameters up to the next comma outside quotes.
      var end = rest.endIndex
      var quoted = false
      var escaped = false
      for index in rest.indices {
        let c = rest[index]
        if escaped {
          escaped = false
        } else if quoted && c == "\\" {
          escaped = true
        } else if c == "\"" {
          quoted.toggle()
        } else if c == "," && !quoted {
          end = index
          break
        }
      }
      for parameter in splitParameters(rest[..<end]) {
        let parts = parameter.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, trimmed(parts[0]).lowercased() == "rel" else { continue }
        var text = trimmed(parts[1])
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        relations = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
        break
      }
      result.append((target.trimmingSpaces, relations))
      rest = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
    }
    return result
  }

  /// `;`-separated parameters, `;` inside quotes kept.
  private static func splitParameters(_ text: Substring) -> [Substring] {
    var parts: [Substring] = []
    var start = text.startIndex
    var quoted = false
    for index in text.indices {
      if text[index] == "\"" { quoted.toggle() }
      if text[index] == ";" && !quoted {
        parts.append(text[start..<index])
        start = text.index(after: index)
      }
    }
    parts.append(text[start...])
    return parts
  }

  private static func trimmed(_ s: Substring) -> Substring {
    var s = s
    while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
    while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
    return s
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var s = Substring(self)
    while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
    while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
    return String(s)
  }
}
