public import APXCore

extension GraphQLDocument.Operation {
  /// Refuses variables the operation does not declare (a misspelt name would otherwise be
  /// dropped by the server) and missing required ones, before anything is sent.
  /// - Parameter variables: the names given (items, or the keys of `-d`'s object).
  public func check(variables: [String], origin: String) throws(APXError) {
    let declared = self.variables.map(\.name)
    for given in variables where !declared.contains(given) {
      throw APXError(
        .usage,
        "\(origin): the operation declares no variable $\(given)"
          + (declared.isEmpty ? "" : " (it declares \(declared.map { "$\($0)" }.joined(separator: ", ")))"),
        hint: Suggestions.hint(for: given, in: declared)
          ?? "declare it, e.g. query($\(given): String) { ... }, or drop the item")
    }
    for variable in self.variables where variable.isRequired && !variables.contains(variable.name) {
      throw APXError(
        .usage, "\(origin): the operation needs $\(variable.name) (\(variable.type))",
        hint: "give it as an item: \(variable.name)=TEXT, or \(variable.name):=JSON")
    }
  }
}
