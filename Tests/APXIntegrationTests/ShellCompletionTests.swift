import APXTestSupport
import Foundation
import Testing

/// Completion as a user gets it: each shell runs interactively in tmux with
/// the script `apx completions SHELL` prints, the test types a line and TAB, and reads the
/// screen. A test whose shell (or tmux) is missing is skipped and says so; `.ci/run` installs
/// all of them.
@Suite("shell completion", .serialized, .timeLimit(.minutes(5)))
struct ShellCompletionTests {
  /// Typed text, the keys after it, and what the line must then read. `X` typed after TAB
  /// shows whether a space was added (`job_id=X`: the item goes on; `status X`: a whole word).
  static let cases: [(typed: String, keys: [String], expected: String)] = [
    ("apx call books.imports.st", ["Tab"], "apx call books.imports.status X"),
    ("apx describe calc.su", ["Tab"], "apx describe calc.subtract X"),
    ("apx call books.imports.status ", ["Tab"], "apx call books.imports.status job_id=X"),
    ("apx call books.imports.create cs", ["Tab"], "apx call books.imports.create csv=@X"),
    ("apx call books.imports.create csv=@da", ["Tab", "Tab"], "apx call books.imports.create csv=@data/books.csv X"),
    ("apx call -d @da", ["Tab", "Tab"], "apx call -d @data/books.csv X"),
    ("apx call calc.add a:=1 + calc.subtract mi", ["Tab"], "apx call calc.add a:=1 + calc.subtract minuend=X"),
    ("apx call books.imports.create --env p", ["Tab"], "apx call books.imports.create --env prod X"),
    ("apx list ca", ["Tab"], "apx list calc X"),
    ("apx auth login gi", ["Tab"], "apx auth login gifs X"),
    ("apx run recipe.json na", ["Tab"], "apx run recipe.json name=X"),
    // A space in a path after @ is escaped as the shell needs it, typed or completed.
    ("apx call books.imports.create csv=@my\\ f", ["Tab"], "apx call books.imports.create csv=@my\\ file.csv X"),
    ("apx call -d @my\\ d", ["Tab", "Tab"], "apx call -d @my\\ dir/inner\\ one.csv X"),
  ]

  @Test(.enabled(if: Shell.bash.isInstalled, Shell.bash.missing))
  func bash() async throws { try await Self.check(.bash) }

  @Test(.enabled(if: Shell.zsh.isInstalled, Shell.zsh.missing))
  func zsh() async throws { try await Self.check(.zsh) }

  @Test(.enabled(if: Shell.fish.isInstalled, Shell.fish.missing))
  func fish() async throws { try await Self.check(.fish) }

  /// A registry file that does not parse offers nothing and prints nothing: completion output
  /// lands in the user's command line.
  @Test func aMalformedRegistryCompletesQuietly() async throws {
    let folder = try Self.workFolder()
    let registry = folder.appendingPathComponent("reg")
    try FileManager.default.createDirectory(at: registry, withIntermediateDirectories: true)
    try Data(#"{"api": "broken", "endpoints": {"x": {"#.utf8).write(to: registry.appendingPathComponent("broken.json"))
    try Data("{not json".utf8).write(to: folder.appendingPathComponent("bad-recipe.json"))
    let lines: [[String]] = [
      ["call", "--", "positional@0", "2", "3", "apx", "call", "bro"],
      ["call", "--", "positional@1", "3", "0", "apx", "call", "broken.x", ""],
      ["call", "--", "--env", "3", "0", "apx", "call", "--env", "", "broken.x"],
      ["list", "--", "positional@0", "2", "0", "apx", "list", ""],
      ["run", "--", "positional@1", "3", "0", "apx", "run", "bad-recipe.json", ""],
      ["run", "--", "positional@1", "3", "0", "apx", "run", "missing.json", ""],
    ]
    for line in lines {
      let r = try await APXProcess.run(
        ["---completion"] + line, environment: ["APX_REGISTRY": registry.path], currentDirectory: folder)
      #expect(r.status == 0, "\(line): \(r.stderr)")
      #expect(r.stderr.isEmpty, "\(line): \(r.stderr)")
      let offered = r.stdout.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      #expect(
        line[2] == "positional@0" && line[0] == "list" ? offered == ["broken"] : offered.isEmpty, "\(line): \(r.stdout)"
      )
    }
  }

  /// `--registry` on the line is the registry completion reads, as a command would.
  @Test func theLinesRegistryFlagIsTheRegistryRead() async throws {
    let folder = try Self.workFolder()
    let registry = folder.appendingPathComponent("reg")
    try FileManager.default.createDirectory(at: registry, withIntermediateDirectories: true)
    try Data(
      #"{"api": "mine", "environments": {"here": {"base_url": "http://127.0.0.1:1"}}, "default_environment": "here", "endpoints": {"ping": {"kind": "rest", "method": "GET", "path": "/", "params": {"who": {"in": "query"}}}}}"#
        .utf8
    ).write(to: registry.appendingPathComponent("mine.json"))
    let flags = ["--registry", registry.path]
    let r1 = try await APXProcess.run(
      ["---completion", "call", "--", "positional@0", "4", "0", "apx", "call"] + flags + [""])
    #expect(r1.stdout.split(separator: "\n") == ["mine.ping"], "\(r1.stdout)\(r1.stderr)")
    let r2 = try await APXProcess.run(
      ["---completion", "call", "--", "positional@1", "5", "0", "apx", "call"] + flags + ["mine.ping", ""])
    #expect(r2.stdout.split(separator: "\n") == ["who="], "\(r2.stdout)\(r2.stderr)")
    let r3 = try await APXProcess.run(
      ["---completion", "call", "--", "--env", "6", "0", "apx", "call"] + flags + ["mine.ping", "--env", ""])
    #expect(r3.stdout.split(separator: "\n") == ["here"], "\(r3.stdout)\(r3.stderr)")
  }

  // MARK: - Driving a shell in tmux

  enum Shell: String {
    case bash, zsh, fish

    var path: String? { TmuxTerminal.find(rawValue) }
    var isInstalled: Bool { path != nil && TmuxTerminal.tmux != nil }
    var missing: Comment {
      TmuxTerminal.tmux == nil
        ? TmuxTerminal.missing
        : Comment(rawValue: "\(rawValue) is not installed (apt-get install \(rawValue); .ci/run installs it)")
    }

    /// The shell with no user configuration, a `$ ` prompt and apx's completion loaded.
    func start(script: URL, home: URL) -> (command: String, setup: String) {
      let path = self.path ?? rawValue
      switch self {
      case .bash: return ("\(path) --norc --noprofile", "PS1='$ '; source '\(script.path)'")
      case .zsh:
        let functions = script.deletingLastPathComponent().path
        return (
          "\(path) -f",
          "PS1='$ '; fpath=('\(functions)' $fpath); autoload -Uz compinit; compinit -u -d '\(home.path)/zcompdump'"
        )
      case .fish:
        return (
          "\(path) --no-config",
          "function fish_prompt; echo '$ '; end; set -g fish_autosuggestion_enabled 0; source '\(script.path)'"
        )
      }
    }
  }

  static func check(_ shell: Shell) async throws {
    let folder = try workFolder()
    let home = folder.appendingPathComponent("home")
    let scripts = folder.appendingPathComponent("scripts")
    for dir in [home, scripts, folder.appendingPathComponent("data")] {
      try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    try Data("title\nA\n".utf8).write(to: folder.appendingPathComponent("data/books.csv"))
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("my dir"), withIntermediateDirectories: true)
    for name in ["my file.csv", "my dir/inner one.csv"] {
      try Data("title\nA\n".utf8).write(to: folder.appendingPathComponent(name))
    }
    try Data(#"{"inputs": {"name": {"type": "string"}}, "steps": []}"#.utf8)
      .write(to: folder.appendingPathComponent("recipe.json"))
    let generated = try await APXProcess.run(["completions", shell.rawValue])
    #expect(generated.status == 0)
    let script = scripts.appendingPathComponent(shell == .zsh ? "_apx" : "apx.\(shell.rawValue)")
    try Data(generated.stdout.utf8).write(to: script)

    let (command, setup) = shell.start(script: script, home: home)
    let environment = [
      "HOME=\(home.path)", "TERM=xterm", "LANG=C.UTF-8", "APX_REGISTRY=\(APXProcess.endpoints)",
      "PATH=\(APXProcess.binary.deletingLastPathComponent().path):/usr/bin:/bin",
    ]
    let terminal = try await TmuxTerminal.start(
      command: command, environment: environment, folder: folder, name: "apx-completion")
    var failures: [String] = []
    do {
      try await terminal.type(setup)
      try await terminal.press("Enter")
      for (typed, keys, expected) in cases {
        try await terminal.press("C-u")
        try await terminal.type(typed)
        for key in keys { try await terminal.press(key) }
        try await terminal.type("X")
        // The shell reads the keys in order: once X shows, the completion before it is done.
        let screen = try await terminal.waitForScreen { $0.contains(expected) }
        if !screen.contains(expected) {
          failures.append("typed \"\(typed)\" + \(keys): expected \"\(expected)\", screen:\n\(screen)")
        }
        try await terminal.press("C-u")
        try await terminal.press("clear", "Enter")
      }
    } catch {
      failures.append("\(error)")
    }
    await terminal.stop()
    #expect(failures.isEmpty, "\(shell.rawValue):\n\(failures.joined(separator: "\n"))")
  }

  static func workFolder() throws -> URL {
    let folder = TestScratch.root.appendingPathComponent("apx-completion-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}
