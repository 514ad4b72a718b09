import APXCore

/// Builds a value that a JSON Schema accepts: a schema's own `example` or first `examples`
/// entry when it fits, else types, `required`, `enum`/`const`, numeric and length bounds,
/// `pattern`s (drawn by `RegexSampler`), the formats date-time, date, uuid, email and uri,
/// array sizes, `allOf` (merged), `oneOf`/`anyOf` (the first non-null branch whose value the
/// whole schema accepts; for `oneOf`, that exactly one branch accepts), `nullable` and `type`
/// lists with `null`. The same generator state gives the same value.
///
/// Each value is built within a size budget (about the bytes of its JSON): a schema whose
/// minimums ask for more (`minItems: 1e8`, or `minItems: 10000` nested twice) stops the
/// building at once and sets `overBudget`, so a hostile description cannot grow the mock.
struct ValueGenerator {
  var random: SeededRandom
  let book: SchemaBook
  /// The patterns no text could be drawn for (look-around, or bounds that exclude them):
  /// the value built holds a string they refuse, so the caller must not serve it.
  private(set) var unmetPatterns: [String] = []
  /// Nesting past which objects keep only their required members and arrays their minimum size.
  static let fullDepth = 4
  /// Nesting past which nothing more is built (`{}` allows any value).
  static let maxDepth = 12
  /// The default size budget of one answer (`apx mock --max-generated-size`).
  static let defaultBudget = MockOptions.defaultMaxGeneratedSize
  /// What is left of the budget; below 0 once it ran out.
  private(set) var budget: Int
  /// The budget ran out: the value built is cut short, so the caller must not serve it.
  var overBudget: Bool { budget < 0 }

  /// A bound as an integer within ±10^15, whatever the schema wrote (1e300 must not trap).
  static func clamped(_ value: Double) -> Int {
    guard value.isFinite else { return value < 0 ? -1_000_000_000_000_000 : 1_000_000_000_000_000 }
    return Int(max(-1e15, min(1e15, value)))
  }

  init(random: SeededRandom, book: SchemaBook, budget: Int = Self.defaultBudget) {
    self.random = random
    self.book = book
    self.budget = budget
  }

  /// Takes `size` from the budget; false once it has run out.
  private mutating func spend(_ size: Int) -> Bool {
    budget = size > budget ? -1 : budget - size
    return !overBudget
  }

  /// A scalar, its JSON's size taken from the budget.
  private mutating func sized(_ scalar: JSONValue) -> JSONValue {
    let size: Int
    switch scalar {
    case .number(let text): size = text.utf8.count
    case .bool(let flag): size = flag ? 4 : 5
    default: size = 8
    }
    _ = spend(size)
    return scalar
  }

  mutating func value(for schema: JSONValue, depth: Int = 0) -> JSONValue {
    // Each value costs at least a byte, and nothing more is built once the budget is spent.
    guard spend(1) else { return .null }
    if case .bool(let allowed) = schema { return allowed ? .string("value") : .null }
    let view = SchemaView(schema, book)
    if let c = view.constValue { return c }
    if let choices = view.enumValues, !choices.isEmpty {
      let nonNull = choices.filter { $0 != .null }
      let pool = nonNull.isEmpty ? choices : nonNull
      return pool[Int(random.next() % UInt64(pool.count))]
    }
    if let example = fittingExample(view) { return example }
    if !view.types.isEmpty, view.types.allSatisfy({ $0 == "null" }) { return .null }
    if !view.alternatives.isEmpty { return alternative(view, depth: depth) }
    switch view.mainType {
    case "object": return object(view, depth: depth)
    case "array": return array(view, depth: depth)
    case "string": return .string(string(view))
    case "integer": return sized(.number(String(integer(view))))
    case "number": return sized(number(view))
    case "boolean": return sized(.bool(random.next() % 2 == 0))
    case "null": return sized(.null)
    default: return .object([])
    }
  }

  /// The schema's `example`, else the first of its `examples` (JSON Schema's list), when the
  /// schema accepts it: descriptions' authors pick realistic values, and a misfit is skipped.
  private func fittingExample(_ view: SchemaView) -> JSONValue? {
    let candidates = [view.schema["example"]].compactMap { $0 } + (view.schema["examples"]?.arrayValue?.prefix(1) ?? [])
    return candidates.first { example in
      guard SchemaValidator.problem(example, view.schema, book, at: "") == nil else { return false }
      guard case .string(let text) = example, let pattern = view.schema["pattern"]?.stringValue else { return true }
      return PatternCheck.problem(text, pattern: pattern) == nil
    }
  }

  /// A value for a `oneOf`/`anyOf` schema: branches that allow more than `null` first (a
  /// nullable reference, `oneOf: [{type: null}, {$ref: ...}]`, answers with the object), each
  /// built with the parent's keywords and kept once the whole schema accepts it; for `oneOf`,
  /// once exactly one branch does.
  private mutating func alternative(_ view: SchemaView, depth: Int) -> JSONValue {
    let branches = view.alternatives
    let book = self.book
    let nullOnly = branches.map { SchemaView($0, book).types == ["null"] }
    let ordered = zip(branches, nullOnly).filter { !$0.1 }.map(\.0) + zip(branches, nullOnly).filter(\.1).map(\.0)
    let exclusive = view.schema["oneOf"] != nil
    let before = unmetPatterns
    var first: (value: JSONValue, unmet: [String])?
    for branch in ordered {
      unmetPatterns = before
      let candidate = value(for: overlay(branch, on: view.schema), depth: depth + 1)
      if first == nil { first = (candidate, unmetPatterns) }
      guard unmetPatterns.count == before.count, SchemaValidator.problem(candidate, view.schema, book, at: "") == nil
      else { continue }
      if exclusive {
        let accepting = branches.filter { SchemaValidator.problem(candidate, $0, book, at: "") == nil }.count
        guard accepting == 1 else { continue }
      }
      return candidate
    }
    // No branch gave a value the schema accepts: the first one's, with what it could not meet.
    unmetPatterns = first?.unmet ?? before
    return first?.value ?? .object([])
  }

  /// A `oneOf`/`anyOf` branch with the parent's own keywords (its `type`, `properties`) under it.
  private func overlay(_ branch: JSONValue, on parent: JSONValue) -> JSONValue {
    guard case .object(var members) = book.resolve(branch), case .object(let outer) = parent else { return branch }
    for m in outer where !["oneOf", "anyOf", "allOf"].contains(m.key) && !members.contains(where: { $0.key == m.key }) {
      members.append(m)
    }
    return .object(members)
  }

  private mutating func object(_ view: SchemaView, depth: Int) -> JSONValue {
    guard depth < Self.maxDepth else { return .object([]) }
    let required = Set(view.required)
    var out: [JSONMember] = []
    for p in view.properties where depth < Self.fullDepth || required.contains(p.key) {
      if book.resolve(p.value)["writeOnly"]?.boolValue == true, !required.contains(p.key) { continue }
      guard spend(p.key.utf8.count + 4) else { return .object(out) }
      out.append(JSONMember(p.key, value(for: p.value, depth: depth + 1)))
    }
    // Required names without a property schema still need a value.
    for name in view.required where !out.contains(where: { $0.key == name }) {
      out.append(JSONMember(name, .string("value")))
    }
    let extra = view.schema["additionalProperties"]
    if extra?.boolValue != false, let minimum = view.int("minProperties") {
      guard minimum - out.count <= budget else {
        budget = -1
        return .object(out)
      }
      var i = 1
      while out.count < minimum, spend(10) {
        let schema = extra.flatMap { $0.boolValue == nil ? $0 : nil } ?? .object([])
        out.append(JSONMember("extra\(i)", value(for: schema, depth: depth + 1)))
        i += 1
      }
    }
    return .object(out)
  }

  private mutating func array(_ view: SchemaView, depth: Int) -> JSONValue {
    let minimum = max(0, view.int("minItems") ?? 0)
    // Each item takes a byte at least: a minimum past the budget is refused before any is built.
    guard minimum <= budget else {
      budget = -1
      return .array([])
    }
    let maximum = max(minimum, view.int("maxItems") ?? max(minimum, 2))
    var count = depth < Self.fullDepth ? min(maximum, max(minimum, 1 + Int(random.next() % 2))) : minimum
    if depth >= Self.maxDepth { count = minimum }
    let items = view.schema["items"] ?? .object([])
    var out: [JSONValue] = []
    for _ in 0..<count where !overBudget {
      var item = value(for: items, depth: depth + 1)
      // uniqueItems: a few tries for a new value; a schema with too few values keeps what it has.
      var tries = 0
      while view.schema["uniqueItems"]?.boolValue == true, out.contains(item), tries < 8 {
        item = value(for: items, depth: depth + 1)
        tries += 1
      }
      if view.schema["uniqueItems"]?.boolValue == true, out.contains(item) { break }
      out.append(item)
    }
    return .array(out)
  }

  private mutating func integer(_ view: SchemaView) -> Int {
    var low = view.number("minimum").map { Self.clamped($0.rounded(.up)) } ?? 0
    var high = view.number("maximum").map { Self.clamped($0.rounded(.down)) } ?? max(low, 0) + 1000
    if let e = view.number("exclusiveMinimum") { low = max(low, Self.clamped(e.rounded(.down)) + 1) }
    if let e = view.number("exclusiveMaximum") { high = min(high, Self.clamped(e.rounded(.up)) - 1) }
    // OpenAPI 3.0's boolean exclusiveMinimum/exclusiveMaximum.
    if view.schema["exclusiveMinimum"]?.boolValue == true { low += 1 }
    if view.schema["exclusiveMaximum"]?.boolValue == true { high -= 1 }
    if high < low { high = low }
    var n = low + Int(random.next() % UInt64(min(high - low, 1_000_000) + 1))
    if let step = view.int("multipleOf"), step > 0 {
      n = (n / step) * step
      if n < low { n += step }
    }
    return n
  }

  private mutating func number(_ view: SchemaView) -> JSONValue {
    let low = view.number("minimum") ?? view.number("exclusiveMinimum").map { $0 + 0.5 } ?? 0
    let high = max(low, view.number("maximum") ?? view.number("exclusiveMaximum").map { $0 - 0.5 } ?? low + 1000)
    if view.number("multipleOf") != nil { return .number(String(integer(view))) }
    let fraction = Double(random.next() % 1000) / 1000
    return .double(((low + (high - low) * fraction) * 100).rounded() / 100)
  }

  private mutating func string(_ view: SchemaView) -> String {
    let minimum = max(0, view.int("minLength") ?? 0)
    guard spend(minimum + 2) else { return "" }
    let maximum = max(minimum, view.int("maxLength") ?? Int.max)
    if let pattern = view.schema["pattern"]?.stringValue {
      if let sampler = try? RegexSampler(pattern),
        let text = sampler.sample(&random, minLength: minimum, maxLength: min(maximum, max(minimum, 10_000))),
        (minimum...maximum).contains(text.count), spend(text.utf8.count - minimum)
      {
        return text
      }
      if !unmetPatterns.contains(pattern) { unmetPatterns.append(pattern) }
    }
    var text: String
    switch view.format {
    case "date-time": text = "\(date())T\(two(24)):\(two(60)):\(two(60))Z"
    case "date": text = date()
    case "time": text = "\(two(24)):\(two(60)):\(two(60))Z"
    case "uuid": text = uuid()
    case "email": text = "user\(random.next() % 1000)@example.com"
    case "uri", "url": text = "https://example.com/\(word(6))"
    case "hostname": text = "host\(random.next() % 100).example.com"
    case "ipv4": text = "192.0.2.\(random.next() % 255)"
    case "byte": text = "YXB4"
    default: text = word(min(maximum, max(minimum, 8)))
    }
    let length = text.count
    if length > maximum { text = String(text.prefix(maximum)) }
    if length < minimum { text += String(repeating: "x", count: minimum - length) }
    return text
  }

  private mutating func two(_ below: UInt64) -> String {
    let n = random.next() % below
    return n < 10 ? "0\(n)" : "\(n)"
  }

  private mutating func date() -> String {
    let year = 2020 + random.next() % 10
    let month = 1 + random.next() % 12
    let day = 1 + random.next() % 28
    return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
  }

  private mutating func uuid() -> String {
    let hex = Array("0123456789abcdef")
    var out = ""
    for i in 0..<32 {
      if [8, 12, 16, 20].contains(i) { out += "-" }
      out.append(i == 12 ? "4" : (i == 16 ? hex[8 + Int(random.next() % 4)] : hex[Int(random.next() % 16)]))
    }
    return out
  }

  private mutating func word(_ length: Int) -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    return String((0..<length).map { _ in letters[Int(random.next() % 26)] })
  }
}
