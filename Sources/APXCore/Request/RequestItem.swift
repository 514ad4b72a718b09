/// One request item of `apx call`, in the syntax HTTPie and xh users already type.
///
/// The separator is the first `:`, `=` or `@` outside a backslash escape; at that
/// position the longest separator wins (`:=@` over `:=` over `:`, `==` over `=`):
/// - `Name:value` — a header (`Name:` removes one)
/// - `name==value` — a query parameter (added to those the URL or endpoint has)
/// - `name=value`, `name:=json`, `name=@file`, `name:=@file`, `name=@-.path` — a
///   parameter (a JSON body field in an ad-hoc call), see `ParamArgument`
/// - `name@path` — a multipart file part streamed from disk
///
/// A `\` before `:`, `=`, `@`, `[`, `]` or `\` in the name makes it part of the name.
/// A parameter name with brackets is a nested key (`user[name]=Ann`, see `NestedPath`);
/// header, query and file-part names are taken as typed, brackets and all.
public enum RequestItem: Sendable, Hashable {
  case header(name: String, value: String)
  case query(name: String, value: String)
  case param(ParamArgument)
  case filePart(name: String, path: String)

  /// The syntax, shown with every malformed item.
  public static let syntax =
    "Name:value (header), name==value (query), name=value, name:=json, name=@file, name:=@file, name=@-.path, name@file (file part), name[key]=value (nested)"

  /// Parses one item; a malformed one is a usage error (exit 2) that shows it and the syntax.
  public init(parsing text: String) throws(APXError) {
    var chars: [NestedPath.Char] = []
    var index = text.startIndex
    var offset = 0
    var separator: String?
    while index < text.endIndex {
      let ch = text[index]
      if ch == "\\", text.index(after: index) < text.endIndex, "\\:=@[]".contains(text[text.index(after: index)]) {
        chars.append(NestedPath.Char(char: text[text.index(after: index)], escaped: true, offset: offset))
        index = text.index(index, offsetBy: 2)
        offset += 2
        continue
      }
      if ch == ":" || ch == "=" || ch == "@" {
        let rest = text[index...]
        separator = ["==", ":=", ":", "=", "@"].first { rest.hasPrefix($0) }
        break
      }
      chars.append(NestedPath.Char(char: ch, escaped: false, offset: offset))
      index = text.index(after: index)
      offset += 1
    }
    let name = String(chars.map(\.char))
    guard let separator else {
      throw Self.malformed(text, "has no separator")
    }
    guard !name.isEmpty else { throw Self.malformed(text, "has no name before '\(separator)'") }
    let value = String(text[text.index(index, offsetBy: separator.count)...])
    switch separator {
    case ":":
      guard Self.isToken(name) else {
        throw Self.malformed(text, "is not a header: \"\(name)\" is not a valid header name")
      }
      // Scalars, not Characters: "\r\n" is one Character and would slip through a Character match.
      guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
        throw Self.malformed(text, "has a line break or NUL in the header value")
      }
      self = .header(name: name, value: Self.trimmed(value))
    case "==":
      self = .query(name: name, value: value)
    case "@":
      guard !value.isEmpty else { throw Self.malformed(text, "names no file after '@'") }
      self = .filePart(name: name, path: value)
    default:
      var argument = try ParamArgument(name: name, isJSON: separator == ":=", rest: value)
      if chars.contains(where: { ($0.char == "[" || $0.char == "]") && !$0.escaped }) {
        let path = try NestedPath(parsing: chars, source: String(text[..<index]))
        if path.steps.count == 1, let root = path.root {
          argument.name = root  // `[a]=1` is `a=1`
        } else {
          argument.name = path.root ?? ""
          argument.nested = path
        }
      }
      self = .param(argument)
    }
  }

  static func malformed(_ text: String, _ why: String) -> APXError {
    APXError(.usage, "the request item \"\(text)\" \(why)", hint: "items: \(syntax)")
  }

  /// RFC 9110 token characters: what a header name may hold.
  static func isToken(_ s: String) -> Bool {
    s.unicodeScalars.allSatisfy { c in
      c.isASCII
        && (c.properties.isAlphabetic || ("0"..."9").contains(c) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(c))
    }
  }

  static func trimmed(_ s: String) -> String {
    var v = Substring(s)
    while v.first == " " || v.first == "\t" { v = v.dropFirst() }
    while v.last == " " || v.last == "\t" { v = v.dropLast() }
    return String(v)
  }
}
