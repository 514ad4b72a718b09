/// One check on the value at a subject: every predicate must hold. A check without
/// predicates (`{"path": ".body.ready"}`) holds when the value is truthy.
public struct RecipeCheck: Sendable, Hashable {
  /// Where the value is: a jq-style path into the checked value, or a template.
  public var subject: RecipeSubject
  /// What the value must satisfy, in the order a summary names them.
  public var predicates: [RecipePredicate]
  /// Where the check is written, for reports.
  public var location: SourceLocation?

  /// Makes a check.
  public init(subject: RecipeSubject, _ predicates: [RecipePredicate] = [], location: SourceLocation? = nil) {
    self.subject = subject
    self.predicates = predicates
    self.location = location
  }

  /// The values of its `equals` predicates: the only values of a check that hold templates.
  public var templatedValues: [JSONValue] {
    predicates.compactMap { if case .equals(let value) = $0 { value } else { nil } }
  }

  /// A short description for reports: `.body.status equals "complete"`.
  public var summary: String {
    subject.text + " " + (predicates.isEmpty ? "is truthy" : predicates.map(\.summary).joined(separator: " and "))
  }
}

/// One test of a check, a case per key a check object may hold.
public enum RecipePredicate: Sendable, Hashable {
  /// `equals`: the value equals this, after its templates are rendered.
  case equals(JSONValue)
  /// `one_of`: the value equals one of these.
  case oneOf([JSONValue])
  /// `exists: true`: the value is there and not null.
  case exists
  /// `exists: false`: the value is missing or null.
  case missing
  /// `matches`: the value, as text, matches this regular expression (`RecipeRegex`).
  case matches(String)
  /// `less`: the value is a number below this.
  case less(Double)
  /// `greater`: the value is a number above this.
  case greater(Double)

  /// `equals "complete"`, `< 10`.
  public var summary: String {
    switch self {
    case .equals(let value): "equals \(value.compactJSON)"
    case .oneOf(let values): "is one of \(JSONValue.array(values).compactJSON)"
    case .exists: "exists"
    case .missing: "does not exist"
    case .matches(let pattern): "matches /\(pattern)/"
    case .less(let bound): "< \(RecipeNumber.text(bound))"
    case .greater(let bound): "> \(RecipeNumber.text(bound))"
    }
  }

  /// `exists` or `missing`: tested before the others, so that a missing value is reported as such.
  var isPresence: Bool {
    switch self {
    case .exists, .missing: true
    default: false
    }
  }
}

/// What a check or condition looks at.
public enum RecipeSubject: Sendable, Hashable {
  /// A path into the value being checked (a step result, a stream item).
  case path(JSONPath)
  /// A template over inputs and steps (`${steps.upload.status}`).
  case template(Template)

  /// The subject as written.
  public var text: String {
    switch self {
    case .path(let p): return p.text
    case .template(let t): return t.text
    }
  }
}
