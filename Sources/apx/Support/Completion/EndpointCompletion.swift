/// Shell completion of `API.ENDPOINT` words (`apx call`, `apx describe`), read live from the
/// registry so completions follow the user's own registry files.
enum EndpointCompletion {
  @Sendable static func complete(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    let line = CompletionLine(words, index, prefix)
    // bash: `-d @da` arrives as `-d`, `@`, `da`, and its parser takes `da` for the target.
    if line.isAfterAt { return PathCompletion.complete(prefix, lead: "@") }
    return names(matching: prefix, in: CompletionRegistry(line: line))
  }

  /// `API.ENDPOINT` names that start with `prefix`. Once the API is typed (`books.`), only that
  /// API's file is read.
  static func names(matching prefix: String, in registry: CompletionRegistry) -> [String] {
    let apis: [String]
    if let dot = prefix.firstIndex(of: ".") {
      apis = [String(prefix[..<dot])]
    } else {
      apis = registry.apiNames.filter { $0.hasPrefix(prefix) }
    }
    return apis.flatMap { api in
      registry.endpointNames(of: api).map { api + "." + $0 }.filter { $0.hasPrefix(prefix) }
    }
  }
}

/// Shell completion of API names (`apx list`, `apx auth ... API`).
enum APICompletion {
  @Sendable static func complete(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    CompletionRegistry(line: CompletionLine(words, index, prefix)).apiNames.filter { $0.hasPrefix(prefix) }
  }
}

/// Shell completion of `--env` values: the environments of the API the line names (its
/// `API.ENDPOINT` or API word), else of every API (a recipe may call several).
enum EnvironmentCompletion {
  @Sendable static func complete(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    let line = CompletionLine(words, index, prefix)
    let registry = CompletionRegistry(line: line)
    let apis = registry.apiNames
    var named: String?
    for (i, word) in line.words.enumerated() where i != line.index && i > 0 && !word.hasPrefix("-") {
      if ValueOptionNames.contains(line.words[i - 1], command: line.words.count > 1 ? line.words[1] : nil) { continue }
      let candidate = word.split(separator: ".", maxSplits: 1).first.map(String.init) ?? word
      if !word.contains("/"), !word.contains(":"), apis.contains(candidate) {
        named = candidate
        break
      }
    }
    var seen = Set<String>()
    return (named.map { [$0] } ?? apis).flatMap { registry.environmentNames(of: $0) }
      .filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
  }
}
