/// Duplicated mapping keys, compared as Yams compared them (apx read YAML with Yams before):
/// two keys are the same when their text and their resolved tags are equal, so `1` and `'1'`
/// (an int and a string) differ while `abc` and `'abc'` (both strings) are the same key.
enum YAMLKeys {
  /// The duplicated keys of one mapping (texts, sorted) and where the first repeat starts.
  static func duplicates(_ keys: [YAMLNode]) -> (names: [String], line: Int, column: Int)? {
    var seen: [String: [Int]] = [:]
    var names: Set<String> = []
    var first: (line: Int, column: Int)?
    for (index, key) in keys.enumerated() {
      let bucket = bucketName(key)
      let earlier = seen[bucket, default: []]
      if earlier.contains(where: { same(keys[$0], key) }) {
        names.insert(displayName(key))
        if first == nil, case .scalar(let scalar) = key { first = (scalar.line, scalar.column) }
      }
      seen[bucket, default: []].append(index)
    }
    guard !names.isEmpty else { return nil }
    return (names.sorted(), first?.line ?? 1, first?.column ?? 1)
  }

  /// Keys that can be equal share a bucket; scalars by their text.
  private static func bucketName(_ node: YAMLNode) -> String {
    if case .scalar(let scalar) = node { return "s" + scalar.text }
    return "c"
  }

  private static func displayName(_ node: YAMLNode) -> String {
    if case .scalar(let scalar) = node { return scalar.text }
    return "<a mapping or sequence>"
  }

  static func same(_ a: YAMLNode, _ b: YAMLNode) -> Bool {
    switch (a, b) {
    case (.scalar(let x), .scalar(let y)):
      guard x.text == y.text else { return false }
      if x.tag == y.tag { return true }
      return resolved(x) == resolved(y)
    case (.sequence(let x, let xTag), .sequence(let y, let yTag)):
      return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        && resolved(xTag, YAMLTag.seq) == resolved(yTag, YAMLTag.seq)
    case (.mapping(let x, let xTag), .mapping(let y, let yTag)):
      return x.count == y.count && zip(x, y).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
        && resolved(xTag, YAMLTag.map) == resolved(yTag, YAMLTag.map)
    default:
      return false
    }
  }

  /// A collection's tag: none or the non-specific `!` means its kind's default.
  private static func resolved(_ tag: String?, _ kind: String) -> String {
    guard let tag, tag != "!" else { return kind }
    return tag
  }

  /// A scalar's tag: explicit, `!` (a string), or resolved from a plain scalar's text.
  static func resolved(_ scalar: YAMLScalar) -> String {
    guard let tag = scalar.tag else { return YAMLPlainScalarTag.resolve(scalar.text) }
    return tag == "!" ? YAMLTag.str : tag
  }
}
