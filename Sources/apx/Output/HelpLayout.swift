/// Fits ArgumentParser's help text to the terminal without re-wrapping preformatted text.
///
/// ArgumentParser wraps every line of a command's discussion to the screen width, so an
/// example command line or a table that is wider than the terminal is broken mid-line and
/// loses its indentation. apx asks for its help unwrapped (rendered very wide) and wraps it
/// here: prose (discussion lines that start in column 0, joined into paragraphs up to a blank
/// or an indented line) and option, argument and subcommand descriptions (under a hanging
/// indent) are wrapped at the width; an indented discussion line (examples, tables) is
/// preformatted and printed as written, as `man` does.
enum HelpLayout {
  /// Where ArgumentParser starts an option's description.
  static let descriptionColumn = 26

  /// A width that wraps nothing (how wide apx asks ArgumentParser to render).
  static let unwrapped = 10_000

  /// `help` fitted to `width`; any other text (a version, completions) is returned as it is.
  static func fit(_ help: String, width: Int) -> String {
    guard help.split(separator: "\n").contains(where: { $0.hasPrefix("USAGE:") }) else { return help }
    var out: [String] = []
    var inDiscussion = true
    var paragraph: [Substring] = []
    func flush() {
      if !paragraph.isEmpty { out += wrap(Substring(paragraph.joined(separator: " ")), width: width, indent: 0) }
      paragraph = []
    }
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      if inDiscussion, !line.hasPrefix("USAGE:"), !line.isEmpty, line.first != " " {
        paragraph.append(line)
        continue
      }
      flush()
      if line.hasPrefix("USAGE:") {
        // Sections start here; the usage line itself is kept whole, as ArgumentParser keeps it.
        inDiscussion = false
        out.append(String(line))
      } else if line.first == " " {
        if inDiscussion {
          out.append(String(line))
        } else {
          out += wrap(line, width: width, indent: descriptionColumn)
        }
      } else {
        out += wrap(line, width: width, indent: 0)
      }
    }
    flush()
    return out.joined(separator: "\n")
  }

  /// Greedy word wrap at spaces after column `indent`; continuation lines start at `indent`.
  /// A word longer than the width stays whole.
  static func wrap(_ line: Substring, width: Int, indent: Int) -> [String] {
    var lines: [String] = []
    var rest = Array(line)
    var prefix: [Character] = []
    while prefix.count + rest.count > width {
      let room = width - prefix.count
      let start = max(0, indent - prefix.count)
      guard start < room,
        let space = rest[start...room].lastIndex(of: " ") ?? rest[room...].firstIndex(of: " ")
      else { break }
      var head = rest[..<space]
      while head.last == " " { head = head.dropLast() }
      guard !head.isEmpty, head.count > start || prefix.isEmpty && start == 0 else { break }
      lines.append(String(prefix + head))
      rest = Array(rest[space...].drop { $0 == " " })
      prefix = Array(repeating: " ", count: indent)
      if rest.isEmpty { break }
    }
    if !rest.isEmpty || lines.isEmpty { lines.append(String(prefix + rest)) }
    return lines
  }
}
