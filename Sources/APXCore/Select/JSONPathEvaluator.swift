/// Applies a `JSONPath` to a value with jq's rules (or strict ones for templates).
struct JSONPathEvaluator {
  let path: JSONPath
  /// Missing keys, out-of-range indexes and indexing `null` are errors.
  let strict: Bool
  private var results: [JSONValue] = []
  /// The concrete location of the value being visited, for error messages.
  private var trail: [JSONPathStep] = []

  init(path: JSONPath, strict: Bool) {
    self.path = path
    self.strict = strict
  }

  /// The values the current step leads to, with the step kind that reached each.
  private var pending: [(JSONValue, JSONPathStep.Kind)] = []

  mutating func run(_ value: JSONValue) throws(APXError) -> [JSONValue] {
    results = []
    trail = []
    // A depth-first walk with a stack of its own, in document order: recursing once per
    // step overflowed the thread's stack on long paths (a 1,024-step path in a debug build).
    var stack: [(value: JSONValue, step: Int, kind: JSONPathStep.Kind?, depth: Int)] = [(value, 0, nil, 0)]
    while let work = stack.popLast() {
      trail.removeSubrange(work.depth...)
      if let kind = work.kind { trail.append(JSONPathStep(kind)) }
      pending.removeAll(keepingCapacity: true)
      try visit(work.value, step: work.step)
      for (child, kind) in pending.reversed() { stack.append((child, work.step + 1, kind, trail.count)) }
    }
    return results
  }

  /// True when a `?` at this step or a later one suppresses errors raised at `step`
  /// (jq's `?` covers the whole chain before it).
  private func isSuppressed(at step: Int) -> Bool {
    path.steps[step...].contains(where: \.optional)
  }

  private mutating func visit(_ value: JSONValue, step: Int) throws(APXError) {
    guard step < path.steps.count else {
      results.append(value)
      return
    }
    let current = path.steps[step]
    switch current.kind {
    case .key(let key):
      switch value {
      case .object(let members):
        if let member = members.first(where: { $0.key == key }) {
          try descend(member.value, as: .key(key), step: step)
        } else if strict {
          let keys = members.map(\.key)
          let listed =
            keys.isEmpty
            ? "the object is empty" : "its keys are " + keys.prefix(12).map { "\"\($0)\"" }.joined(separator: ", ")
          try fail("no key \"\(key)\" here", hint: listed, value: nil, step: step)
        } else {
          try descend(.null, as: .key(key), step: step)
        }
      case .null where !strict:
        try descend(.null, as: .key(key), step: step)
      default:
        try fail("cannot index \(value.typeName) with \"\(key)\"", value: value, step: step)
      }
    case .index(let index):
      switch value {
      case .array(let items):
        let resolved = index < 0 ? items.count + index : index
        if items.indices.contains(resolved) {
          try descend(items[resolved], as: .index(index), step: step)
        } else if strict {
          try fail(
            "index \(index) is out of range: the array has \(items.count) element\(items.count == 1 ? "" : "s")",
            value: nil, step: step)
        } else {
          try descend(.null, as: .index(index), step: step)
        }
      case .null where !strict:
        try descend(.null, as: .index(index), step: step)
      default:
        try fail("cannot index \(value.typeName) with number", value: value, step: step)
      }
    case .iterate:
      switch value {
      case .array(let items):
        for (i, item) in items.enumerated() { try descend(item, as: .index(i), step: step) }
      case .object(let members):
        for member in members { try descend(member.value, as: .key(member.key), step: step) }
      default:
        try fail("cannot iterate over \(value.typeName)", value: value, step: step)
      }
    case .slice(let from, let to):
      switch value {
      case .array(let items):
        let range = Self.sliceRange(from: from, to: to, count: items.count)
        try descend(.array(Array(items[range])), as: current.kind, step: step)
      case .string(let s):
        let scalars = Array(s.unicodeScalars)
        let range = Self.sliceRange(from: from, to: to, count: scalars.count)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[range])
        try descend(.string(String(view)), as: current.kind, step: step)
      case .null where !strict:
        try descend(.null, as: current.kind, step: step)
      default:
        try fail("cannot slice \(value.typeName)", value: value, step: step)
      }
    }
  }

  /// Queues `value`, reached by `kind`, for the next step (see `run`).
  private mutating func descend(_ value: JSONValue, as kind: JSONPathStep.Kind, step: Int) throws(APXError) {
    pending.append((value, kind))
  }

  /// jq's slice bounds: negative counts from the end, clamped to the array.
  static func sliceRange(from: Int?, to: Int?, count: Int) -> Range<Int> {
    func clamp(_ i: Int) -> Int {
      let resolved = i < 0 ? count + i : i
      return min(max(resolved, 0), count)
    }
    let lower = from.map(clamp) ?? 0
    let upper = to.map(clamp) ?? count
    return lower..<max(lower, upper)
  }

  private func fail(_ message: String, hint: String? = nil, value: JSONValue?, step: Int) throws(APXError) {
    if isSuppressed(at: step) { return }
    var cause: String?
    if let value {
      var preview = value.compactJSON
      if preview.unicodeScalars.count > 80 {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: preview.unicodeScalars.prefix(77))
        preview = String(view) + "..."
      }
      cause = "the value at \(JSONPathStep.render(trail)) is \(preview)"
    }
    throw APXError(
      .usage, message,
      hint: hint ?? "check the path \(path.text) against the data, or add '?' to skip values that do not fit",
      path: JSONPathStep.render(trail), cause: cause)
  }
}
