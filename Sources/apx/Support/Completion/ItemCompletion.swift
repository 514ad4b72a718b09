import APXCore
import APXRuntime

/// Shell completion of request items after `apx call API.ENDPOINT` (`job_id=`, `csv=@` for a
/// `file` parameter), of file paths after `@` in an item or `-d`, and of the next endpoint
/// after a JSON-RPC batch's `+`.
enum ItemCompletion {
  @Sendable static func complete(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    let line = CompletionLine(words, index, prefix)
    let positionals = line.positionals(after: "call")
    let registry = CompletionRegistry(line: line)
    if positionals.last?.word == "+" { return EndpointCompletion.names(matching: prefix, in: registry) }
    if line.isAfterAt { return PathCompletion.complete(prefix, lead: "@") }
    if let paths = paths(in: prefix) { return paths }
    if line.isAfterItemSeparator { return [] }
    // The endpoint the items belong to: the first positional, or the one after the last `+`.
    let target = positionals.enumerated().last { i, p in i == 0 || positionals[i - 1].word == "+" }?.element.word
    guard let target, !target.contains("/"), !target.contains(":"), let dot = target.firstIndex(of: ".") else {
      return []
    }
    let api = String(target[..<dot])
    let endpoint = String(target[target.index(after: dot)...])
    return registry.parameters(of: api, endpoint: endpoint)
      .map { $0.name + ($0.isFile ? "=@" : "=") }
      .filter { $0.hasPrefix(prefix) }
  }

  /// `-d` values: a path after `@` (JSON text has nothing to complete).
  @Sendable static func completeBody(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    if CompletionLine(words, index, prefix).isAfterAt { return PathCompletion.complete(prefix, lead: "@") }
    guard prefix.hasPrefix("@") else { return [] }
    return PathCompletion.complete(String(prefix.dropFirst()), lead: "@")
  }

  /// Paths when `word` is at a file: `@pa` (bash splits `name=` off), `name=@pa`,
  /// `name:=@pa`, `name@pa`; nil when it is not.
  static func paths(in word: String) -> [String]? {
    if word.hasPrefix("@") { return PathCompletion.complete(String(word.dropFirst()), lead: "@") }
    // The first `:`, `=` or `@` decides an item's kind (see README, Request items).
    guard let first = word.firstIndex(where: { $0 == ":" || $0 == "=" || $0 == "@" }) else { return nil }
    var rest = word[first...]
    if rest.first == "@" {
      rest = rest.dropFirst()
    } else {
      while let c = rest.first, c == ":" || c == "=" { rest = rest.dropFirst() }
      guard rest.first == "@" else { return nil }
      rest = rest.dropFirst()
    }
    let lead = String(word[..<rest.startIndex])
    return PathCompletion.complete(String(rest), lead: lead)
  }
}

/// Shell completion of a recipe's inputs after `apx run RECIPE` (`name=`, and paths after `@`).
enum RecipeInputCompletion {
  @Sendable static func complete(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    let line = CompletionLine(words, index, prefix)
    if line.isAfterAt { return PathCompletion.complete(prefix, lead: "@") }
    if let paths = ItemCompletion.paths(in: prefix) { return paths }
    if line.isAfterItemSeparator { return [] }
    // Read whole: a recipe is one small file, and it must parse for its inputs to be known.
    guard let recipe = line.positionals(after: "run").first?.word,
      let bytes = try? FileBytes.read(recipe),
      let inputs = (try? JSONParser.parse(bytes))?["inputs"]?.objectMembers
    else { return [] }
    return inputs.map { $0.key + ($0.value["type"]?.stringValue == "file" ? "=@" : "=") }
      .filter { $0.hasPrefix(prefix) }
  }
}
