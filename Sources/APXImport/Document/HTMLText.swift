/// Descriptions written in HTML (Stripe's and others' OpenAPI documents use `<p>`, `<code>`,
/// `<a href>`) as plain text for a registry, where `apx list` and `describe` print them.
enum HTMLText {
  /// `text` without its tags and with its character references decoded; a paragraph or line
  /// break tag becomes a blank line (a paragraph end), so the first paragraph stays apart.
  /// Text without a tag or reference is returned as it is: a `<` that starts no tag stays.
  static func plain(_ text: String) -> String {
    guard text.contains("<") || text.contains("&") else { return text }
    var out = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(where: { $0 == "<" || $0 == "&" }) {
      out += rest[..<open]
      rest = rest[open...]
      if rest.first == "<", let (tag, after) = Self.tag(at: rest) {
        if Self.breaks.contains(tag) { out += "\n\n" }
        rest = rest[after...]
      } else if rest.first == "&", let (character, after) = Self.reference(at: rest) {
        out.append(character)
        rest = rest[after...]
      } else {
        out.append(rest.removeFirst())
      }
    }
    return out + rest
  }

  /// Tags after which a new paragraph starts.
  private static let breaks: Set<String> = ["p", "br", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "table", "tr"]

  /// The lower-cased name of the tag (`<p class=x>`, `</p>`, `<br/>`) at the start of `text`,
  /// and where it ends; nil when `<` starts no tag (`a < b`).
  private static func tag(at text: Substring) -> (String, Substring.Index)? {
    var name = text.dropFirst()
    if name.first == "/" { name = name.dropFirst() }
    guard let first = name.first, first.isASCII, first.isLetter,
      let close = name.firstIndex(of: ">")
    else { return nil }
    let tagName = name[..<close].prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }
    return (tagName.lowercased(), name.index(after: close))
  }

  private static let named: [String: Character] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "mdash": "—", "ndash": "–",
    "hellip": "…", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“",
  ]

  /// The character a reference (`&amp;`, `&#39;`, `&#x27;`) at the start of `text` stands
  /// for, and where it ends; nil when `&` starts none.
  private static func reference(at text: Substring) -> (Character, Substring.Index)? {
    guard let semicolon = text.prefix(12).firstIndex(of: ";") else { return nil }
    let body = text[text.index(after: text.startIndex)..<semicolon]
    let after = text.index(after: semicolon)
    if let character = named[String(body)] { return (character, after) }
    guard body.first == "#" else { return nil }
    let digits = body.dropFirst()
    let value =
      digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
    guard let value, let scalar = Unicode.Scalar(value), value >= 0x20 else { return nil }
    return (Character(scalar), after)
  }
}
