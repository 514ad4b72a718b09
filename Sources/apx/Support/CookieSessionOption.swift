import APXCore
import APXRuntime
import ArgumentParser

/// `--session NAME` (`apx call`, `apx run`): the cookies servers set are kept in a named jar
/// under the state folder and sent back by later runs, as xh's `--session` does.
struct CookieSessionOption: ParsableArguments {
  @Option(
    name: .customLong("session"),
    help: ArgumentHelp(
      "Keep the cookies servers set in the session NAME (a 0600 file in the state folder) and send them back "
        + "on later calls with the same --session; see `apx session`.",
      valueName: "NAME"))
  var name: String?

  func validate() throws {
    if let name, let problem = CookieSessionStore.problem(name: name) {
      throw ValidationError("--session \(name): \(problem)")
    }
  }

}

/// Loading and saving the jar of `--session NAME`.
enum CookieSession {
  /// The jar to run with: the stored session's, or a fresh one without a name.
  static func jar(_ name: String?, _ context: Context) throws -> SharedCookieJar {
    let jar = try name.map { SharedCookieJar(try store(context).read($0)) } ?? SharedCookieJar()
    jar.reportRefusals { context.warn($0) }
    return jar
  }

  /// Stores the jar after the run, whatever its outcome: cookies a failed call received are
  /// the server's state too (a login that set a cookie before a later step failed). What this
  /// run received is applied onto the session as stored now, under its lock: a cookie another
  /// run stored since this one began is kept.
  static func save(_ jar: SharedCookieJar, as name: String?, _ context: Context) async throws {
    guard let name else { return }
    _ = try await store(context).update(name) { jar.applied(onto: $0) }
  }

  /// Runs `body` with the session's jar, and stores the jar when it ends.
  static func with<T>(_ name: String?, _ context: Context, _ body: (SharedCookieJar) async throws -> T) async throws
    -> T
  {
    let jar = try jar(name, context)
    do {
      let result = try await body(jar)
      try await save(jar, as: name, context)
      return result
    } catch {
      try? await save(jar, as: name, context)
      throw error
    }
  }

  static func store(_ context: Context) throws(APXError) -> CookieSessionStore {
    guard let store = CookieSessionStore.standard(environment: context.environment) else {
      throw APXError(
        .usage, "--session needs a state folder to keep the cookies in",
        hint: "set APX_STATE_DIR (or HOME) to a writable folder")
    }
    return store
  }
}
