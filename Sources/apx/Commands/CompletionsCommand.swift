import APXCore
import ArgumentParser

/// `apx completions bash|zsh|fish`: prints a completion script. Endpoint
/// names complete dynamically from the registry at completion time.
struct CompletionsCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "completions",
    abstract: "Print a shell completion script (bash, zsh or fish).",
    discussion: """
      Install one (scripts/install.sh does):
        bash: apx completions bash > /etc/bash_completion.d/apx   (or: source <(apx completions bash))
        zsh:  apx completions zsh > "${fpath[1]}/_apx"
        fish: apx completions fish > ~/.config/fish/completions/apx.fish
      The same scripts are in the repository's completions/ folder.

      TAB then completes from your registry, read when you press it: API.ENDPOINT after call and
      describe, API names after list and auth, an endpoint's parameters (job_id=), --env values,
      file paths after @ (csv=@..., -d @...), and a recipe's inputs after run RECIPE.
      """)

  @Argument(help: ArgumentHelp("The shell: bash, zsh or fish.", valueName: "SHELL"))
  var shell: String

  func run(in context: Context) async throws {
    guard let kind = CompletionShell(rawValue: shell) else {
      throw APXError(.usage, "unknown shell \"\(shell)\"", hint: "use bash, zsh or fish")
    }
    context.stdout.write(CompletionScript.text(for: kind))
    context.stdout.flush()
  }
}
