import ArgumentParser

/// The completion script for a shell: ArgumentParser's, with a few lines of apx's own.
///
/// ArgumentParser's scripts add a space after every candidate (and bash's `-o filenames`
/// also escapes `=` and `@`), which is right for whole words but not for `job_id=`, `csv=@`
/// or a folder inside an item (`csv=@data/`), where the user goes on typing in the same word.
/// fish already leaves no space after `=`, `@` and `/`; for bash and zsh, apx adds a wrapper
/// that keeps such a candidate open. Everything else stays ArgumentParser's.
enum CompletionScript {
  static func text(for shell: CompletionShell) -> String {
    let generated = APX.completionScript(for: shell)
    switch shell {
    case .bash: return generated + bashAddition
    case .zsh: return zshText(generated)
    case .fish: return fishText(generated)
    default: return generated
    }
  }

  /// ArgumentParser's fish script hands every flag's name to fish's `argparse`, which takes
  /// only letters, digits, `-` and `_`: `http1.1` (curl's name for `--http1.1`) made it fail,
  /// and with it every completion of the commands that take the flag. It is left out of those
  /// specs: completion then stops only after a `--http1.1` already typed.
  static func fishText(_ generated: String) -> String {
    generated.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.contains("__apx_parse_subcommand ") ? line.replacing(" 'http1.1'", with: "") : line
    }.joined(separator: "\n")
  }

  /// Replaces the `complete` line: candidates that are items or paths (`name=`, `@file`) are
  /// inserted as they are, with no space after one that goes on.
  static let bashAddition = """

    # apx: an item (name=, csv=@) or a path after @ is one word the user goes on typing:
    # insert it with = and @ as they are (-o filenames would escape them) but what the shell
    # splits escaped (a space in a file name: %q), and when it ends in =, @ or /, without a
    # space after it.
    __apx_complete_items() {
        _apx "${@}"
        local candidate index
        for candidate in "${COMPREPLY[@]}"; do
            if [[ "${candidate}" == *=* || "${candidate}" == @* ]]; then
                compopt +o filenames 2>/dev/null
                for index in "${!COMPREPLY[@]}"; do
                    printf -v "COMPREPLY[${index}]" '%q' "${COMPREPLY[${index}]}"
                done
                if [[ "${#COMPREPLY[@]}" -eq 1 && "${COMPREPLY[0]}" == *[=@/] ]]; then
                    compopt -o nospace 2>/dev/null
                fi
                break
            fi
        done
    }

    complete -o filenames -F __apx_complete_items apx

    """

  /// Redefines `__apx_complete` before the script's last lines run `_apx`.
  static func zshText(_ generated: String) -> String {
    let addition = #"""
      # apx: a candidate ending in =, @ or / (name=, csv=@, a folder) goes on in the same
      # word: no space after it (and its ':' is no description separator).
      __apx_complete() {
          local -a non_empty_completions=("${@:#(|:*)}")
          local -ar empty_completions=("${(M)@:#(|:*)}")
          local -a open=("${(@M)non_empty_completions:#*[=@/]}")
          non_empty_completions=("${(@)non_empty_completions:#*[=@/]}")
          open=("${(@)open//:/\\:}")
          (( ${#open} )) && _describe -V '' open -S ''
          _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
      }


      """#
    let marker = "if [[ \"${funcstack[1]}\" = _apx ]]; then"
    guard let range = generated.ranges(of: marker).last else {
      // ArgumentParser changed its script's ending: keep its script whole rather than break it.
      return generated
    }
    var script = generated
    script.insert(contentsOf: addition, at: range.lowerBound)
    return script
  }
}
