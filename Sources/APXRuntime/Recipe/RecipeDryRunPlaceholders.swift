import APXCore

/// Stand-ins for the `${...}` references a dry run cannot resolve (earlier steps' results).
///
/// A reference's own text would be percent-encoded in a URL (`%24%7Bsteps.upload.job_id%7D`);
/// a stand-in made of characters no encoding changes goes through request building, and is
/// swapped back for the reference's text in what the dry run prints.
final class RecipeDryRunPlaceholders {
  private var references: [(token: String, text: String)] = []

  /// The stand-in for `reference` (the same one each time it is asked for).
  func token(for reference: String) -> String {
    if let known = references.first(where: { $0.text == reference }) { return known.token }
    let token = "__apx_unresolved_\(references.count)__"
    references.append((token, reference))
    return token
  }

  /// `value` with every stand-in in its strings and keys back to its reference's text.
  func restore(_ value: JSONValue) -> JSONValue {
    guard !references.isEmpty else { return value }
    switch value {
    case .string(let s): return .string(restore(s))
    case .array(let items): return .array(items.map(restore))
    case .object(let members): return .object(members.map { JSONMember(restore($0.key), restore($0.value)) })
    default: return value
    }
  }

  private func restore(_ text: String) -> String {
    guard text.contains("__apx_unresolved_") else { return text }
    var out = text
    for (token, reference) in references { out = out.replacing(token, with: reference) }
    return out
  }
}
