extension RecipeCondition {
  /// Every `${...}` reference in the condition (its template, or its check's
  /// template subject and `equals` value).
  public var references: [TemplateReference] {
    switch self {
    case .truthy(let template):
      return template.references
    case .check(let check):
      var refs: [TemplateReference] = []
      if case .template(let t) = check.subject { refs += t.references }
      for value in check.templatedValues {
        if let found = try? Template.references(in: value) { refs += found.map(\.reference) }
      }
      return refs
    }
  }

  /// Whether the condition depends on a loop item: it reads the item
  /// (`${item.enabled}` for `"as": "item"`), a loop variable (`${loop.index}`),
  /// or is a check whose path looks into the item (`{"path": ".enabled"}`).
  /// A condition that depends on none of these has the same value for every
  /// item, so it can be evaluated once, before the loop.
  public func readsLoopItem(named itemName: String) -> Bool {
    if case .check(let check) = self, case .path = check.subject { return true }
    return references.contains { $0.namespace == itemName || $0.namespace == RecipeValidator.loopNamespace }
  }
}

extension RecipeStep {
  /// True when the step's `if` is evaluated once per `foreach` item (with the
  /// item and `${loop.index}` in scope) rather than once for the whole step:
  /// items for which it does not hold are skipped, the others run.
  public var conditionIsPerItem: Bool {
    guard let loop = foreach, let condition else { return false }
    return condition.readsLoopItem(named: loop.name)
  }
}
