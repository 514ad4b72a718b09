import APXCore

/// Names the environment variables behind registry auth fields, so auth
/// errors can say exactly what to check ("check BOOKS_CLIENT_SECRET")
/// without ever showing a value.
enum AuthSettingHints {
  /// The `NAME`s of every `${env:NAME}` / `${env:NAME:-fallback}` in `template`, in order.
  static func environmentVariables(in template: String) -> [String] {
    var names: [String] = []
    var rest = Substring(template)
    while let start = rest.firstRange(of: "${env:") {
      rest = rest[start.upperBound...]
      let end = rest.firstIndex { $0 == "}" || $0 == ":" } ?? rest.endIndex
      let name = String(rest[..<end])
      if !name.isEmpty, !names.contains(name) { names.append(name) }
      rest = rest[end...]
    }
    return names
  }

  /// "check BOOKS_CLIENT_ID and BOOKS_CLIENT_SECRET (client_id and client_secret in FILE)",
  /// noting variables that are unset (so a registry fallback was used).
  static func check(
    fields: [(key: String, template: String)], environment: [String: String], file: String
  ) -> String {
    let variables = fields.flatMap { environmentVariables(in: $0.template) }
    let keys = list(fields.map(\.key))
    guard !variables.isEmpty else { return "check \(keys) of the \"auth\" block in \(file)" }
    let unset = variables.filter { (environment[$0] ?? "").isEmpty }
    var text =
      "check the environment variable\(variables.count == 1 ? "" : "s") \(list(variables)) (\(keys) in \(file))"
    if !unset.isEmpty {
      text += "; \(list(unset)) \(unset.count == 1 ? "is" : "are") not set, so the registry's default is used"
    }
    return text
  }

  /// "a", "a and b", "a, b and c".
  static func list(_ items: [String]) -> String {
    switch items.count {
    case 0: ""
    case 1: items[0]
    default: items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
  }
}
