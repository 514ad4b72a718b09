import APXCore
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Renders apx's help as a man page (roff, `man 7 man` macros): one section per command, its
/// help text kept as written (preformatted), so the page never disagrees with `--help`.
enum ManualPage {
  /// The whole page for `root` and every command under it, depth first. No date: the same
  /// binary always prints the same page.
  static func render(root: any ParsableCommand.Type) -> String {
    let name = root.configuration.commandName ?? "apx"
    var page = """
      .TH \(escape(name.uppercased())) 1 "" "\(escape(APXVersionText.text))" "User Commands"
      .SH NAME
      \(escape(name)) \\- \(escape(root.configuration.abstract))
      .SH SYNOPSIS
      .B \(escape(name))
      .I COMMAND
      [\\fIOPTIONS\\fR]

      """
    page += section("DESCRIPTION", help: root.helpMessage(includeHidden: false, columns: 100))
    for (path, command) in commands(under: root, path: [name]) {
      page += section(
        "COMMAND: " + path.joined(separator: " ").uppercased(),
        help: root.helpMessage(for: command, includeHidden: false, columns: 100))
    }
    page += """
      .SH SEE ALSO
      \\fBcurl\\fR(1), \\fBjq\\fR(1); the README of the apx repository.

      """
    return page
  }

  /// Every visible command below `command`, with the words that run it.
  private static func commands(under command: any ParsableCommand.Type, path: [String]) -> [(
    [String], any ParsableCommand.Type
  )] {
    command.configuration.subcommands.filter { $0.configuration.shouldDisplay }.flatMap { sub in
      let words = path + [sub.configuration.commandName ?? String(describing: sub)]
      return [(words, sub)] + commands(under: sub, path: words)
    }
  }

  /// A section holding `help` verbatim: `.nf` stops roff from refilling the columns of the
  /// option lists and the exit-code table.
  private static func section(_ title: String, help: String) -> String {
    ".SH \(escape(title))\n.nf\n"
      + help.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        line.isEmpty ? ".sp" : escapeLine(String(line))
      }.joined(separator: "\n") + "\n.fi\n"
  }

  /// One line of text: backslashes doubled, and a leading `.` or `'` (which roff would read
  /// as a request) guarded with the zero-width `\&`.
  static func escapeLine(_ line: String) -> String {
    let escaped = escape(line)
    return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
  }

  /// Text inside a roff line: backslash and `-` (a hyphen roff may render as a dash).
  static func escape(_ text: String) -> String {
    text.replacingEach("\\", with: "\\\\").replacingEach("-", with: "\\-")
  }
}
