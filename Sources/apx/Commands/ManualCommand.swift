import ArgumentParser

/// `apx manual`: prints apx's man page (roff), made from the same help texts as `--help`.
/// `scripts/install.sh` installs it as `share/man/man1/apx.1`.
struct ManualCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "manual",
    abstract: "Print apx's man page (roff) built from every command's help.",
    discussion: """
        Read it now:  apx manual | man -l -
        Install it:   apx manual > ~/.local/share/man/man1/apx.1   (scripts/install.sh does this)
      """)

  func run(in context: Context) async throws {
    context.stdout.write(ManualPage.render(root: APX.self))
    context.stdout.flush()
  }
}
