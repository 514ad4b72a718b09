internal import CLibYAML

/// A YAML node as the composer builds it: aliases already replaced by the anchored node.
indirect enum YAMLNode {
  case scalar(YAMLScalar)
  case sequence([YAMLNode], tag: String?)
  case mapping([(key: YAMLNode, value: YAMLNode)], tag: String?)
}

/// A scalar: its text, its explicit tag (nil when the document gives none), and whether it
/// was written plain (unquoted, not a block scalar).
struct YAMLScalar {
  var text: String
  var tag: String?
  var isPlain: Bool
  /// Where it starts, 1-based.
  var line: Int
  var column: Int
}

/// Why a YAML document could not be composed; `description` is the message.
struct YAMLError: Error, CustomStringConvertible {
  let description: String
  /// True when the document is valid YAML but its aliases expand past the composer's limit.
  var isAliasBomb = false
}

/// Composes the single document of a YAML stream into `YAMLNode`s with LibYAML's event
/// parser (the C library Yams wraps). Written here because Yams links all of Foundation and
/// with it ICU's 34 MB of data (a Yams-only static executable strips to 56.8 MB); this is
/// what Yams's `compose(yaml:)` did for apx: one document, anchors and aliases resolved,
/// duplicated keys in a mapping refused, explicit tags kept for the caller.
///
/// Aliases share the anchored node, so composing costs no more than the text; what the caller
/// builds from the tree costs what it expands to. The composer counts that as it goes (each
/// anchor remembers how many values it stands for) and stops at the first alias that takes the
/// values repeated through aliases past `aliasValueLimit`, before anything is expanded: an
/// alias bomb ("billion laughs", nine levels of nine aliases: 387 million values in 200 bytes)
/// is refused at once, in the memory of its text.
final class YAMLComposer {
  private var parser = yaml_parser_t()
  /// Each anchor's node and the number of values it expands to (itself included).
  private var anchors: [String: (node: YAMLNode, values: Int)] = [:]
  private let text: [UInt8]
  private let aliasValueLimit: Int
  /// Values repeated through aliases so far.
  private var aliasValues = 0

  /// Parses `text` (UTF-8) and returns its document's root, or nil for an empty stream.
  /// Throws (with `isAliasBomb`) once aliases repeat more than `aliasValueLimit` values in all.
  static func compose(_ text: [UInt8], aliasValueLimit: Int = .max) throws(YAMLError) -> YAMLNode? {
    // LibYAML asserts on a null input pointer, which an empty array may give.
    guard !text.isEmpty else { return nil }
    let composer = YAMLComposer(text: text, aliasValueLimit: aliasValueLimit)
    return try text.withUnsafeBufferPointer { (buffer) throws(YAMLError) -> YAMLNode? in
      try composer.run(buffer)
    }
  }

  private init(text: [UInt8], aliasValueLimit: Int) {
    self.text = text
    self.aliasValueLimit = aliasValueLimit
    yaml_parser_initialize(&parser)
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
  }

  deinit { yaml_parser_delete(&parser) }

  private func run(_ buffer: UnsafeBufferPointer<UInt8>) throws(YAMLError) -> YAMLNode? {
    yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
    var event = try next()  // STREAM-START
    yaml_event_delete(&event)
    event = try next()
    if event.type == YAML_STREAM_END_EVENT {
      yaml_event_delete(&event)
      return nil
    }
    yaml_event_delete(&event)  // DOCUMENT-START
    let root = try node(try next()).node
    event = try next()  // DOCUMENT-END
    yaml_event_delete(&event)
    event = try next()
    defer { yaml_event_delete(&event) }
    guard event.type == YAML_STREAM_END_EVENT else {
      throw composerError("expected a single document in the stream, but found another document", event)
    }
    return root
  }

  /// The next event; the caller deletes it.
  private func next() throws(YAMLError) -> yaml_event_t {
    var event = yaml_event_t()
    guard yaml_parser_parse(&parser, &event) == 1 else { throw parserError() }
    return event
  }

  /// Builds the node that starts with `first` (consumed), with the number of values it
  /// expands to (itself included).
  private func node(_ first: yaml_event_t) throws(YAMLError) -> (node: YAMLNode, values: Int) {
    var event = first
    defer { yaml_event_delete(&event) }
    switch event.type {
    case YAML_ALIAS_EVENT:
      let name = Self.string(event.data.alias.anchor) ?? ""
      guard let target = anchors[name] else { throw composerError("found undefined alias", event) }
      // Both terms are at most the limit (or the text's length), so the sum cannot overflow.
      aliasValues += target.values
      guard aliasValues <= aliasValueLimit else {
        var error = composerError(
          "the aliases up to here repeat more than \(aliasValueLimit) values (alias '\(name)' alone stands for \(target.values))",
          event)
        error.isAliasBomb = true
        throw error
      }
      return target
    case YAML_SCALAR_EVENT:
      let scalar = event.data.scalar
      let value = YAMLNode.scalar(
        YAMLScalar(
          text: String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self),
          tag: scalar.quoted_implicit == 1 ? YAMLTag.str : Self.string(scalar.tag),
          isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE,
          line: event.start_mark.line + 1, column: event.start_mark.column + 1))
      return register(Self.string(scalar.anchor), (value, 1))
    case YAML_SEQUENCE_START_EVENT:
      let start = event.data.sequence_start
      var items: [YAMLNode] = []
      var values = 1
      while true {
        let item = try next()
        if item.type == YAML_SEQUENCE_END_EVENT {
          var end = item
          yaml_event_delete(&end)
          break
        }
        let child = try node(item)
        items.append(child.node)
        values += child.values
      }
      let value = YAMLNode.sequence(items, tag: start.implicit != 0 ? nil : Self.string(start.tag))
      return register(Self.string(start.anchor), (value, values))
    case YAML_MAPPING_START_EVENT:
      let start = event.data.mapping_start
      var pairs: [(key: YAMLNode, value: YAMLNode)] = []
      var values = 1
      while true {
        let keyEvent = try next()
        if keyEvent.type == YAML_MAPPING_END_EVENT {
          var end = keyEvent
          yaml_event_delete(&end)
          break
        }
        let key = try node(keyEvent)
        let child = try node(try next())
        pairs.append((key.node, child.node))
        values += key.values + child.values
      }
      if let duplicated = YAMLKeys.duplicates(pairs.map(\.key)) {
        throw YAMLError(
          description: "\(duplicated.line):\(duplicated.column): error: composer: found duplicated key(s) "
            + duplicated.names.map { "'\($0)'" }.joined(separator: ", ") + " in one mapping:\n"
            + snippet(duplicated.line, duplicated.column))
      }
      let value = YAMLNode.mapping(pairs, tag: start.implicit != 0 ? nil : Self.string(start.tag))
      return register(Self.string(start.anchor), (value, values))
    default:
      throw composerError("found an unexpected event", event)
    }
  }

  /// Anchors may be redefined; an alias refers to the latest definition before it.
  private func register(_ anchor: String?, _ node: (node: YAMLNode, values: Int)) -> (node: YAMLNode, values: Int) {
    if let anchor { anchors[anchor] = node }
    return node
  }

  private static func string(_ pointer: UnsafeMutablePointer<UInt8>?) -> String? {
    pointer.map { String(cString: $0) }
  }

  private func composerError(_ problem: String, _ event: yaml_event_t) -> YAMLError {
    let line = event.start_mark.line + 1
    let column = event.start_mark.column + 1
    return YAMLError(description: "\(line):\(column): error: composer: \(problem):\n" + snippet(line, column))
  }

  /// LibYAML's own message: what it was reading, what went wrong and where.
  private func parserError() -> YAMLError {
    let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
    switch parser.error {
    case YAML_MEMORY_ERROR:
      return YAMLError(description: "out of memory")
    case YAML_READER_ERROR:
      let before = text.prefix(min(parser.problem_offset, text.count))
      let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
      let line = before.count { $0 == 0x0A } + 1
      let column = String(decoding: before[lineStart...], as: UTF8.self).unicodeScalars.count + 1
      return YAMLError(description: "\(line):\(column): error: reader: \(problem):\n" + snippet(line, column))
    default:
      let kind = parser.error == YAML_SCANNER_ERROR ? "scanner" : "parser"
      let line = parser.problem_mark.line + 1
      let column = parser.problem_mark.column + 1
      var context = ""
      if let text = parser.context {
        context =
          "\(String(cString: text)) in line \(parser.context_mark.line + 1), column \(parser.context_mark.column + 1)\n"
      }
      return YAMLError(
        description: "\(line):\(column): error: \(kind): \(context)\(problem):\n" + snippet(line, column))
    }
  }

  /// The line at `line` (the last one past the end) and a caret under `column` (counted in
  /// Unicode scalars).
  private func snippet(_ line: Int, _ column: Int) -> String {
    var start = 0
    var number = 1
    while number < line, let newline = text[start...].firstIndex(of: 0x0A), newline + 1 < text.count {
      start = newline + 1
      number += 1
    }
    let end = text[start...].firstIndex(of: 0x0A) ?? text.count
    let contents = String(decoding: text[start..<end], as: UTF8.self)
    let caret = contents.unicodeScalars.prefix(column - 1).reduce(0) { $0 + $1.utf16.count }
    return contents + "\n" + String(repeating: " ", count: caret) + "^"
  }
}

/// The YAML tags apx's conversion looks at.
enum YAMLTag {
  static let str = "tag:yaml.org,2002:str"
  static let seq = "tag:yaml.org,2002:seq"
  static let map = "tag:yaml.org,2002:map"
  static let null = "tag:yaml.org,2002:null"
  static let bool = "tag:yaml.org,2002:bool"
  static let int = "tag:yaml.org,2002:int"
  static let float = "tag:yaml.org,2002:float"
}
