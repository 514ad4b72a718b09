/// A ready-made resolver for `Template.render`: `env` references go to a
/// lookup closure the caller provides (APXCore never reads the environment),
/// every other namespace to a value the path is applied to, strictly (a
/// missing key is an error, not `null`).
///
/// ```swift
/// let scope = TemplateScope(
///   environment: { environment[$0] },
///   values: ["input": inputs, "steps": .object(stepResults)])
/// let rendered = try Template.renderStrings(in: step.with, resolve: scope.resolve)
/// ```
public struct TemplateScope: Sendable {
  /// Looks up an environment variable; `nil` when unset.
  public var environment: @Sendable (String) -> String?
  /// The value of each namespace (`input`, `steps`, …).
  public var values: [String: JSONValue]

  /// Makes a scope.
  public init(environment: @escaping @Sendable (String) -> String? = { _ in nil }, values: [String: JSONValue] = [:]) {
    self.environment = environment
    self.values = values
  }

  /// Resolves one reference: the variable's text for `env`, the selected value
  /// otherwise (an array when the path contains `[]`).
  /// - Throws: `APXError` for an unknown namespace or a path that does not fit
  ///   the data (naming the reference and what is missing).
  public func resolve(_ reference: TemplateReference) throws(APXError) -> JSONValue? {
    if reference.namespace == "env" {
      return reference.variable.flatMap(environment).map(JSONValue.string)
    }
    guard let root = values[reference.namespace] else {
      let known = (["env"] + values.keys.sorted()).joined(separator: ", ")
      throw APXError(
        .usage, "unknown namespace '\(reference.namespace)' in \(reference)",
        hint: "references can use: \(known)")
    }
    let results: [JSONValue]
    do {
      results = try reference.path.selectStrictly(in: root)
    } catch {
      let location = error.path.map { " at \(reference.namespace)\($0 == "." ? "" : $0)" } ?? ""
      throw APXError(
        .usage, "cannot resolve \(reference): \(error.message)\(location)", hint: error.hint, cause: error.cause)
    }
    if reference.path.iterates { return .array(results) }
    return results.first
  }
}
