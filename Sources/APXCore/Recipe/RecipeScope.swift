/// The values a recipe's templates can see while it runs: inputs, the results
/// of earlier steps (looked up by id, not rebuilt per step, so a run of 1,000
/// steps stays linear), `${run.id}`, the loop variables and the foreach item.
public struct RecipeScope: Sendable {
  /// Looks up environment variables (`${env:NAME}`).
  public var environment: @Sendable (String) -> String?
  /// The bound inputs as one object.
  public var inputs: JSONValue
  /// Results of finished steps by id.
  public var steps: [String: JSONValue]
  /// `${run.id}`, `${run.recipe}`.
  public var run: JSONValue
  /// `${loop.index}`, `${loop.number}`, `${loop.previous}` inside loops.
  public var loop: JSONValue?
  /// The foreach item's namespace and value.
  public var item: (name: String, value: JSONValue)?

  /// Makes a scope.
  public init(
    environment: @escaping @Sendable (String) -> String?, inputs: JSONValue, steps: [String: JSONValue] = [:],
    run: JSONValue = .object([])
  ) {
    self.environment = environment
    self.inputs = inputs
    self.steps = steps
    self.run = run
  }

  /// Resolves one reference, strictly: a missing key is an error naming it.
  public func resolve(_ reference: TemplateReference) throws(APXError) -> JSONValue? {
    switch reference.namespace {
    case "env":
      return reference.variable.flatMap(environment).map(JSONValue.string)
    case "steps":
      guard let id = reference.firstKey else {
        return try select(reference, .object(steps.map { JSONMember($0.key, $0.value) }), reference.path.steps[...])
      }
      guard let result = steps[id] else {
        throw APXError(
          .usage, "cannot resolve \(reference): the step \"\(id)\" has no result",
          hint: "a step can only use the results of steps that ran before it")
      }
      return try select(reference, result, reference.path.steps.dropFirst())
    case "input":
      return try select(reference, inputs, reference.path.steps[...])
    case "run":
      return try select(reference, run, reference.path.steps[...])
    case "loop":
      guard let loop else {
        throw APXError(.usage, "cannot resolve \(reference): not inside a loop")
      }
      return try select(reference, loop, reference.path.steps[...])
    default:
      if let item, item.name == reference.namespace {
        return try select(reference, item.value, reference.path.steps[...])
      }
      throw APXError(
        .usage, "unknown namespace '\(reference.namespace)' in \(reference)", hint: "run `apx validate` on the recipe")
    }
  }

  private func select(_ reference: TemplateReference, _ root: JSONValue, _ steps: ArraySlice<JSONPathStep>)
    throws(APXError)
    -> JSONValue?
  {
    if steps.isEmpty { return root }
    let path = JSONPath(steps: Array(steps))
    let results: [JSONValue]
    do {
      results = try path.selectStrictly(in: root)
    } catch {
      throw APXError(
        .usage, "cannot resolve \(reference): \(error.message)",
        hint: error.hint ?? "check the path against the step's result",
        cause: error.cause)
    }
    if path.iterates { return .array(results) }
    return results.first
  }
}
