public import APXCore

/// Reads an API description (JSON or YAML bytes) into an ordered `JSONValue`
/// tree. JSON goes through apx's own `JSONParser` (order-keeping, exact
/// numbers, depth-limited); anything else is read as YAML with LibYAML (`YAMLComposer`).
///
/// Why a generic tree and not OpenAPIKit (measured; see docs/architecture.md, "Import reads
/// a generic tree"): OpenAPIKit 6.4 rejects whole real documents for one odd keyword
/// (an integer beyond Int64 in `maximum`, a boolean `exclusiveMinimum` in 3.1),
/// throws on any reference cycle when dereferencing, cannot read Swagger 2.0, and
/// decodes GitHub's 4 MB description in 2.7-3.7 s with vendor extensions (target
/// <= 2 s). Walking the tree with lazy, cycle-safe `$ref` resolution imports
/// every operation it can and skips only the ones it cannot, naming them.
public enum DescriptionReader {
  /// Documents larger than this are refused (GitHub's full description is 11 MB).
  public static let maxBytes = 64 << 20
  /// YAML nesting deeper than this is refused before `YAMLComposer` (which recurses) sees it.
  public static let maxYAMLDepth = 400
  /// A YAML document expanding (through aliases) to more values than this is refused.
  public static let maxYAMLNodes = 20_000_000
  /// A YAML document whose aliases repeat more values than this in all is refused while it is
  /// composed, before anything is expanded (an alias bomb, "billion laughs"). Twelve times all
  /// the values of GitHub's REST description (83,427); about 100 MB once expanded.
  public static let maxYAMLAliasValues = 1_000_000

  /// Parses `bytes`; `source` names the document in messages.
  public static func read(_ bytes: [UInt8], source: String) throws(APXError) -> JSONValue {
    guard bytes.count <= maxBytes else {
      throw APXError(
        .invalidDefinition, "\(source) is \(bytes.count >> 20) MB; apx imports descriptions up to \(maxBytes >> 20) MB")
    }
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    while start < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[start]) { start += 1 }
    if start < bytes.count, bytes[start] == UInt8(ascii: "{") {
      do {
        return try JSONParser.parseDocument(Array(bytes[start...]), recordLocations: false).value
      } catch {
        throw APXError(
          .invalidDefinition, "\(source) is not valid JSON: \(error.message)",
          hint: "check the file at \(error.location)",
          file: source, location: error.location)
      }
    }
    return try readYAML(bytes, source: source)
  }

  static func readYAML(_ bytes: [UInt8], source: String) throws(APXError) -> JSONValue {
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw APXError(.invalidDefinition, "\(source) is neither JSON nor UTF-8 YAML", file: source)
    }
    let depth = YAMLDepthEstimate.maxDepth(bytes)
    guard depth <= maxYAMLDepth else {
      throw APXError(
        .invalidDefinition, "\(source) nests more than \(maxYAMLDepth) levels deep",
        hint: "is it really an API description?",
        file: source)
    }
    let node: YAMLNode?
    do {
      node = try YAMLComposer.compose(bytes, aliasValueLimit: maxYAMLAliasValues)
    } catch let error where error.isAliasBomb {
      throw APXError(
        .invalidDefinition,
        "\(source) has too many alias expansions: \(error)\napx stops at \(maxYAMLAliasValues) values repeated "
          + "through aliases, to protect against alias bombs (\"billion laughs\")",
        hint: "write the repeated parts out or share them with $ref (resolved without copying); "
          + "is it really an API description?",
        file: source)
    } catch {
      throw APXError(.invalidDefinition, "\(source) is not valid YAML: \(error)", file: source)
    }
    guard let node else { throw APXError(.invalidDefinition, "\(source) is empty", file: source) }
    var budget = maxYAMLNodes
    return try YAMLConversion.value(node, depth: 0, budget: &budget, source: source)
  }
}

/// Turns YAML nodes into `JSONValue`s: YAML 1.2 core-schema scalars, keys as text.
enum YAMLConversion {
  static func value(_ node: YAMLNode, depth: Int, budget: inout Int, source: String) throws(APXError) -> JSONValue {
    budget -= 1
    guard budget > 0, depth < DescriptionReader.maxYAMLDepth * 2 else {
      throw APXError(
        .invalidDefinition, "\(source) expands to too many values (aliases?)",
        hint: "apx reads descriptions of up to \(DescriptionReader.maxYAMLNodes) values", file: source)
    }
    switch node {
    case .scalar(let s):
      return scalar(s)
    case .sequence(let seq, _):
      var items: [JSONValue] = []
      items.reserveCapacity(seq.count)
      for item in seq { items.append(try value(item, depth: depth + 1, budget: &budget, source: source)) }
      return .array(items)
    case .mapping(let map, _):
      var members: [JSONMember] = []
      members.reserveCapacity(map.count)
      for (k, v) in map {
        let key: String
        if case .scalar(let ks) = k {
          key = ks.text
        } else {
          key = try value(k, depth: depth + 1, budget: &budget, source: source).compactJSON
        }
        members.append(JSONMember(key, try value(v, depth: depth + 1, budget: &budget, source: source)))
      }
      return .object(members)
    }
  }

  /// A scalar by the YAML core schema; quoted scalars are always strings.
  static func scalar(_ s: YAMLScalar) -> JSONValue {
    let text = s.text
    if !s.isPlain { return .string(text) }
    switch s.tag {
    case YAMLTag.str: return .string(text)
    case YAMLTag.null: return .null
    case YAMLTag.bool:
      return .bool(["true", "yes", "on", "y"].contains(text.lowercased()))
    case YAMLTag.int, YAMLTag.float:
      return number(text) ?? .string(text)
    default:
      if text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL" { return .null }
      if ["true", "True", "TRUE"].contains(text) { return .bool(true) }
      if ["false", "False", "FALSE"].contains(text) { return .bool(false) }
      return number(text) ?? .string(text)
    }
  }

  /// A JSON number for YAML number text (`0x1F`, `1_000`, `.5`, `+3`), keeping big integers exact.
  static func number(_ text: String) -> JSONValue? {
    if let valid = try? JSONParser.parse(text), case .number = valid { return valid }
    var t = text.filter { $0 != "_" }
    if t.hasPrefix("+") { t.removeFirst() }
    if t.hasPrefix("0x"), let i = Int(t.dropFirst(2), radix: 16) { return .int(i) }
    if t.hasPrefix("0o"), let i = Int(t.dropFirst(2), radix: 8) { return .int(i) }
    if let d = Double(t), d.isFinite { return .double(d) }
    return nil
  }
}

/// A cheap upper bound of a YAML document's nesting, computed before parsing
/// because `YAMLComposer` composes recursively: indentation plus `- ` prefixes, plus
/// open flow brackets.
enum YAMLDepthEstimate {
  static func maxDepth(_ bytes: [UInt8]) -> Int {
    var deepest = 0
    var flow = 0
    var i = 0
    var lineStart = true
    var column = 0
    while i < bytes.count {
      let b = bytes[i]
      if b == 0x0A {
        lineStart = true
        column = 0
      } else if lineStart, b == 0x20 || b == UInt8(ascii: "-") {
        column += 1
      } else {
        if lineStart {
          deepest = max(deepest, column / 2)
          lineStart = false
        }
        if b == UInt8(ascii: "[") || b == UInt8(ascii: "{") {
          flow += 1
          deepest = max(deepest, flow + column / 2)
        } else if b == UInt8(ascii: "]") || b == UInt8(ascii: "}") {
          flow = max(0, flow - 1)
        }
      }
      i += 1
    }
    return deepest
  }
}
