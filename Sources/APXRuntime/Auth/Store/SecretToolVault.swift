public import APXCore

/// The Secret Service (GNOME Keyring, KWallet) through libsecret's `secret-tool`: the secret
/// goes on its stdin, never on a command line, and what it prints back is read from a pipe.
/// Each use has a time limit, since a misconfigured bus makes `secret-tool` wait 25 s.
public struct SecretToolVault: TokenVault {
  public let name = "secret-service"
  let executable: String
  let environment: [String: String]
  /// Seconds one `secret-tool` run may take.
  var timeout: Double = 10

  /// Whether `secret-tool` is on PATH and a session bus is named.
  public static func available(environment: [String: String]) -> Bool {
    environment["DBUS_SESSION_BUS_ADDRESS"]?.isEmpty == false
      && TokenCommandRunner.locate("secret-tool", path: environment["PATH"]) != nil
  }

  /// A vault using the `secret-tool` on PATH.
  public init(environment: [String: String]) {
    self.environment = environment
    self.executable = TokenCommandRunner.locate("secret-tool", path: environment["PATH"]) ?? "secret-tool"
  }

  public func read(account: String) async throws(APXError) -> [UInt8]? {
    let out = try await run(["lookup", "service", "apx", "account", account])
    if out.ending == .exited(0) { return out.stdout }
    // Exit 1 with nothing on stderr is secret-tool's "no such item"; anything else failed.
    if out.ending == .exited(1), out.stderr.isEmpty { return nil }
    throw failure("read", account, out)
  }

  public func write(account: String, label: String, _ value: [UInt8]) async throws(APXError) {
    let out = try await run(
      ["store", "--label", label, "service", "apx", "account", account], input: value)
    guard out.ending == .exited(0) else { throw failure("store", account, out) }
  }

  public func delete(account: String) async throws(APXError) -> Bool {
    let out = try await run(["clear", "service", "apx", "account", account])
    if out.ending == .exited(0) { return true }
    if out.ending == .exited(1), out.stderr.isEmpty { return false }
    throw failure("delete", account, out)
  }

  public func all() async throws(APXError) -> [[UInt8]] {
    let out = try await run(["search", "--all", "--unlock", "service", "apx"])
    if out.ending == .exited(1), out.stderr.isEmpty { return [] }
    guard out.ending == .exited(0) else { throw failure("list", "service apx", out) }
    // One `secret = VALUE` line per item on stdout (apx writes its values as one-line JSON);
    // secret-tool prints the attributes on stderr.
    return String(decoding: out.stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
      line.hasPrefix("secret = ") ? Array(line.dropFirst("secret = ".count).utf8) : nil
    }
  }

  private func run(_ arguments: [String], input: [UInt8]? = nil) async throws(APXError) -> ChildProcessOutput {
    let runner = ChildProcessRunner(environment: environment, outputLimit: 1 << 20)
    do {
      return try await runner.run(executable, arguments, timeout: timeout, input: input)
    } catch {
      let why: String =
        switch error {
        case .cannotStart(let detail): "secret-tool could not start (\(detail))"
        case .tooMuchOutput: "secret-tool printed more than 1 MiB"
        case .timedOut: "secret-tool did not answer within \(Int(timeout)) s (is the session bus up?)"
        }
      throw APXError(
        .auth, "cannot use the Secret Service for tokens: \(why)",
        hint: "set APX_TOKEN_STORE=file to keep tokens in 0600 files instead")
    }
  }

  private func failure(_ step: String, _ account: String, _ out: ChildProcessOutput) -> APXError {
    let text = String(decoding: out.stderr.prefix(500), as: UTF8.self).trimmingWhitespaceAndNewlines()
    return APXError(
      .auth,
      "cannot \(step) the token of \(account) in the Secret Service: \(text.isEmpty ? "secret-tool failed" : text)",
      hint: "check that a keyring (GNOME Keyring, KWallet) runs and is unlocked, or set APX_TOKEN_STORE=file")
  }
}
