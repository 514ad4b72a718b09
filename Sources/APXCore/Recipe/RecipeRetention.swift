/// Which fields of a step's result are ever read (by later steps, the output,
/// or the step's own checks and captures), so the runner keeps only those:
/// a loop over 10,000 items must not hold 10,000 response bodies nobody reads.
public enum RecipeRetention: Sendable, Hashable {
  /// Nothing beyond the status is read.
  case none
  /// Only these top-level fields (`body`, `events`, a capture name, …).
  case fields(Set<String>)
  /// The whole result is read (e.g. `${steps.upload}`).
  case all

  /// Whether `field` must be kept.
  public func keeps(_ field: String) -> Bool {
    switch self {
    case .none: return false
    case .fields(let set): return set.contains(field)
    case .all: return true
    }
  }

  /// Both retentions together.
  public func union(_ other: RecipeRetention) -> RecipeRetention {
    switch (self, other) {
    case (.all, _), (_, .all): return .all
    case (.none, let x), (let x, .none): return x
    case (.fields(let a), .fields(let b)): return .fields(a.union(b))
    }
  }

  /// The retention a path into a result implies: its first key, or everything.
  /// Index, slice and `[]` steps first are skipped (results of loops are arrays).
  public static func of(_ steps: some Collection<JSONPathStep>) -> RecipeRetention {
    for step in steps {
      switch step.kind {
      case .key(let k): return .fields([k])
      case .index, .iterate, .slice: continue
      }
    }
    return .all
  }

  /// `value` with only the kept fields (`status` is always kept); arrays (loop
  /// results) are trimmed item by item.
  public func trim(_ value: JSONValue) -> JSONValue {
    switch self {
    case .all: return value
    case .none, .fields:
      switch value {
      case .array(let items): return .array(items.map(trim))
      case .object(let members):
        return .object(
          members.filter { $0.key == "status" || $0.key == "skipped" || $0.key == "error" || keeps($0.key) })
      default: return value
      }
    }
  }
}

extension Recipe {
  /// For each step id, what later steps and the output read of its result.
  public func laterRetention() -> [String: RecipeRetention] {
    var out: [String: RecipeRetention] = [:]
    func note(_ value: JSONValue?) {
      guard let value, let refs = try? Template.references(in: value) else { return }
      for (_, ref) in refs where ref.namespace == "steps" {
        guard let id = ref.firstKey else { continue }
        out[id] = (out[id] ?? .none).union(RecipeRetention.of(ref.path.steps.dropFirst()))
      }
    }
    func note(_ condition: RecipeCondition?) {
      switch condition {
      case .truthy(let t): note(.string(t.text))
      case .check(let c): note(c)
      case nil: return
      }
    }
    func note(_ check: RecipeCheck) {
      if case .template(let t) = check.subject { note(.string(t.text)) }
      for value in check.templatedValues { note(value) }
    }
    for step in steps {
      note(.object(step.with))
      note(.object(step.headers))
      note(step.body)
      note(step.foreach?.over)
      note(step.condition)
      note(step.until)
      for check in step.expect?.checks ?? [] { note(check) }
    }
    note(output)
    return out
  }

  /// What a step's own expect, capture and until read of its result (or of each stream item for until).
  public func ownRetention(of step: RecipeStep) -> RecipeRetention {
    var r = RecipeRetention.none
    for check in step.expect?.checks ?? [] {
      if case .path(let p) = check.subject { r = r.union(.of(p.steps)) }
    }
    for capture in step.capture { r = r.union(.of(capture.path.steps)) }
    if case .check(let c) = step.until, case .path(let p) = c.subject, step.foreach == nil {
      // A repeated call's `until` reads its result; a stream's reads each item, which is always at hand.
      r = r.union(.of(p.steps))
    }
    return r
  }
}
