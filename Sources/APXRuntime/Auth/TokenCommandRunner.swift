import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Runs an API's `token_command` (directly, no shell) and reads the token it
/// prints. A failing command becomes an auth error carrying its stderr, masked.
struct TokenCommandRunner: Sendable {
  /// The process environment (for PATH and for the command itself).
  let environment: [String: String]
  /// Seconds the command may run before it is stopped.
  var timeout: Double = 60
  /// Whether `timeout` is the user's `--timeout` (the hint then says to raise it).
  var limitIsTimeoutFlag = false
  /// Largest stdout/stderr kept.
  static let outputLimit = 1 << 20

  /// Runs `command` (templates resolved) and returns what it printed.
  func run(_ command: [String], api: APIDefinition, now: Double) async throws -> TokenCommandOutput {
    var mask = SecretMask()
    var arguments: [String] = []
    for part in command {
      arguments.append(try TemplateResolver.resolveText(part, environment: environment, mask: &mask, secret: true))
    }
    guard let program = arguments.first, !program.isEmpty else {
      throw APXError(.invalidDefinition, "the token_command of the API \"\(api.name)\" is empty", file: api.sourceFile)
    }
    let shown = Self.display(command)
    guard let executable = Self.locate(program, path: environment["PATH"]) else {
      throw APXError(
        .auth, "the token command of the API \"\(api.name)\" was not found: \(program)",
        hint: "install it or put it on PATH, or fix \"command\" in \(api.sourceFile)")
    }

    let runner = ChildProcessRunner(environment: environment, outputLimit: Self.outputLimit)
    let finished: ChildProcessOutput
    do {
      finished = try await runner.run(executable, Array(arguments.dropFirst()), timeout: timeout)
    } catch .timedOut {
      throw APXError(
        .timeout,
        "the token command of the API \"\(api.name)\" did not finish within \(NetworkErrorMapper.format(timeout))s and was stopped",
        hint: (limitIsTimeoutFlag ? "raise --timeout, or run" : "run")
          + " it yourself to see why it hangs (\(shown)); it may be waiting for a login or for input")
    } catch .tooMuchOutput(let limit) {
      throw APXError(
        .auth, "the token command of the API \"\(api.name)\" printed more than \(limit >> 20) MiB",
        hint: "it should print only the token (or JSON with access_token) on stdout: \(shown)")
    } catch .cannotStart(let why) {
      throw APXError(
        .auth, "cannot run the token command of the API \"\(api.name)\" (\(shown))",
        hint: "check that \(executable) is executable", cause: mask.mask(why))
    }
    let (stdout, stderr) = (finished.stdout, finished.stderr)

    let output = String(decoding: stdout.prefix(Self.outputLimit), as: UTF8.self)
    // Whatever the command printed on stdout is probably a token: never show it.
    for line in output.split(whereSeparator: \.isNewline) { mask.add(line.trimmingWhitespace()) }
    let errorText = mask.mask(String(decoding: stderr.prefix(4096), as: UTF8.self))
      .trimmingWhitespaceAndNewlines()
    guard finished.ending == .exited(0) else {
      let how =
        switch finished.ending {
        case .exited(let status): "failed with exit status \(status)"
        case .signaled(let signal): "was killed by signal \(signal)"
        }
      throw APXError(
        .auth, "the token command of the API \"\(api.name)\" \(how)",
        hint: "run it yourself to see why (\(shown)); you may need to log in to that tool first",
        cause: errorText.isEmpty ? nil : errorText)
    }
    guard let parsed = TokenCommandOutput.parse(output, now: now) else {
      throw APXError(
        .auth, "the token command of the API \"\(api.name)\" printed no token",
        hint: "it should print the token (or JSON with access_token) on stdout: \(shown)",
        cause: errorText.isEmpty ? nil : errorText)
    }
    // A credential that cannot be sent is the credential's fault (exit 8), not the command line's.
    if let bad = parsed.token.unicodeScalars.first(where: { $0.value == 0x7F || ($0.value < 0x20 && $0 != "\t") }) {
      throw APXError(
        .auth,
        "the token command of the API \"\(api.name)\" printed a token with the control character U+"
          + String(bad.value, radix: 16, uppercase: true).paddedHex,
        hint: "it should print only the token (or JSON with access_token) on stdout: \(shown)")
    }
    return parsed
  }

  /// The command as written in the registry (templates unresolved, so no secret values).
  static func display(_ command: [String]) -> String {
    command.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
  }

  /// `program` itself when it contains a slash, else the first executable of that name on `path`.
  static func locate(_ program: String, path: String?) -> String? {
    if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
    let dirs = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    for dir in dirs where !dir.isEmpty {
      let candidate = dir + "/" + program
      if FileKind.isDirectory(candidate) == false, FileManager.default.isExecutableFile(atPath: candidate) {
        return candidate
      }
    }
    return nil
  }
}

extension String {
  /// Four hex digits at least (`1B` -> `001B`), as U+ code points are written.
  fileprivate var paddedHex: String { count >= 4 ? self : String(repeating: "0", count: 4 - count) + self }
}
