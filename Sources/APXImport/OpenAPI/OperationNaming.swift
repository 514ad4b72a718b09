/// Endpoint names for imported operations, one rule users can guess:
///
/// - From `operationId`: each `/`, `.` or `:` starts a new dotted group; inside a
///   group camelCase words and any run of other characters become `-`, all in
///   lower case. `listPets` -> `list-pets`, `repos/get-content` -> `repos.get-content`,
///   `Pets.Get_ByID` -> `pets.get-by-id`.
/// - Without one: the path's segments as groups (placeholders lose their braces),
///   then the method: `GET /pets/{petId}` -> `pets.pet-id.get`, `GET /` -> `get`.
/// - A name already taken (by an earlier operation in document order) gets `-2`,
///   `-3`, ... so names are unique and the same on every import of a document.
public enum OperationNaming {
  /// The base name for an operation (before de-duplication).
  public static func name(operationId: String?, method: String, path: String) -> String {
    if let id = operationId {
      let groups = split(id, separators: "/.:")
      if !groups.isEmpty { return groups.joined(separator: ".") }
    }
    let groups = split(path, separators: "/") + [method.lowercased()]
    return groups.joined(separator: ".")
  }

  /// Kebab-case groups of `text`, empty groups dropped.
  static func split(_ text: String, separators: String) -> [String] {
    var groups: [String] = []
    var current: [Character] = []
    func flush() {
      let word = kebab(current)
      if !word.isEmpty { groups.append(word) }
      current = []
    }
    for ch in text {
      if separators.contains(ch) { flush() } else { current.append(ch) }
    }
    flush()
    return groups
  }

  /// `getHTTPStatus_v2` -> `get-http-status-v2`.
  static func kebab(_ chars: [Character]) -> String {
    var out = ""
    var pendingDash = false
    for (i, ch) in chars.enumerated() {
      guard ch.isASCII, ch.isLetter || ch.isNumber else {
        pendingDash = !out.isEmpty
        continue
      }
      if ch.isUppercase, i > 0, !out.isEmpty {
        let prev = chars[i - 1]
        let next = i + 1 < chars.count ? chars[i + 1] : nil
        // A new word starts at lower->Upper, digit->Upper, or at the last capital of an acronym ("HTTPStatus").
        if prev.isLowercase || prev.isNumber || (prev.isUppercase && next?.isLowercase == true) { pendingDash = true }
      }
      if pendingDash, !out.isEmpty { out.append("-") }
      pendingDash = false
      out.append(Character(ch.lowercased()))
    }
    return out
  }

  /// Unique names: the first use of a name keeps it, later ones get `-2`, `-3`, ...
  struct Registry {
    private var used = Set<String>()

    mutating func claim(_ base: String) -> String {
      var name = base.isEmpty ? "operation" : base
      var n = 2
      while used.contains(name) {
        name = "\(base)-\(n)"
        n += 1
      }
      used.insert(name)
      return name
    }
  }
}
