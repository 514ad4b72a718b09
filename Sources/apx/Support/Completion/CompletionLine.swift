/// The command line a completion was asked for, as ArgumentParser hands it over
/// (`words`, the index of the word under the cursor, and that word up to the cursor).
///
/// bash splits words at the characters in `COMP_WORDBREAKS` (`=` and `:` among them), so
/// there `csv=@da` arrives as `csv`, `=`, `@da`; zsh and fish pass `csv=@da` whole. The
/// helpers here work for both.
struct CompletionLine {
  let words: [String]
  let index: Int
  let prefix: String

  init(_ words: [String], _ index: Int, _ prefix: String) {
    self.words = words
    self.index = min(max(index, 0), words.count)
    self.prefix = prefix
  }

  /// The words before the one being completed.
  var before: ArraySlice<String> { words.prefix(index) }

  /// Every value given to `option` on the line (`--registry DIR` and `--registry=DIR`).
  func values(of option: String) -> [String] {
    var out: [String] = []
    for (i, word) in words.enumerated() where i != index {
      if word == option, i + 1 < words.count, i + 1 != index {
        out.append(words[i + 1])
      } else if word.hasPrefix(option + "=") {
        out.append(String(word.dropFirst(option.count + 1)))
      }
    }
    return out
  }

  /// The positional words after the subcommand `name` (options and their values left out), each
  /// with its index in `words`, up to the word being completed.
  func positionals(after name: String) -> [(index: Int, word: String)] {
    guard let start = words.prefix(index).firstIndex(of: name) else { return [] }
    var out: [(Int, String)] = []
    var i = start + 1
    while i < index {
      let word = words[i]
      if word.hasPrefix("-"), word != "-" {
        // `--name value`: skip the value too (`--name=value` is one word).
        if ValueOptionNames.contains(word, command: name) { i += 1 }
      } else {
        out.append((i, word))
      }
      i += 1
    }
    return out
  }

  /// The word before the one being completed when it is a run of bash word breaks inside an
  /// item (`=`, `:=`, `==`, `:`, `@`, `=@`): bash splits `csv=@da` into `csv`, `=@`, `da`.
  private var separatorBefore: String? {
    guard index > 0 else { return nil }
    let previous = words[index - 1]
    guard !previous.isEmpty, previous.allSatisfy({ $0 == "=" || $0 == ":" || $0 == "@" }) else { return nil }
    return previous
  }

  /// Whether the cursor is in an item's value (after `name=` in bash), not at a new item.
  var isAfterItemSeparator: Bool { separatorBefore != nil }

  /// Whether the cursor is at a path after `@` that bash split off (`csv`, `=@`, `da`; `-d`,
  /// `@`, `da`). bash then replaces `@da` (readline does not break at `@` the way
  /// `COMP_WORDS` does), so the candidates start with `@`.
  var isAfterAt: Bool { separatorBefore?.hasSuffix("@") ?? false }
}
