import APXCore
import APXRuntime
import ArgumentParser

/// `apx session list|show|clear`: the cookie jars `--session NAME` keeps.
struct SessionCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "session",
    abstract: "Manage cookie sessions (the jars `apx call --session NAME` and `apx run --session NAME` keep).",
    discussion: """
      A session keeps the cookies servers set, by RFC 6265's rules (domain, path, Secure, expiry), in the \
      state folder (sessions/NAME.json, mode 0600), and sends them back on later calls with the same \
      --session. Without --session, cookies live for one run: a recipe's steps, --all's pages and a \
      redirect's hops share them. Cookie values are never printed.
      """,
    subcommands: [SessionList.self, SessionShow.self, SessionClear.self]
  )
}

/// `apx session list`: the stored sessions and how many cookies each holds.
struct SessionList: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the stored sessions and how many cookies each holds.")

  @OptionGroup var output: OutputOptions

  func run(in context: Context) async throws {
    let store = try CookieSession.store(context)
    var rows: [JSONValue] = []
    for name in store.names() {
      let count = (try? store.read(name).cookies.count).map { JSONValue.int($0) } ?? .null
      rows.append(.object([JSONMember("session", .string(name)), JSONMember("cookies", count)]))
    }
    try ValuePrinter.print(.array(rows), output: output, context: context, tableByDefault: context.stdoutIsTerminal)
  }
}

/// `apx session show NAME`: a session's cookies, values masked.
struct SessionShow: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", abstract: "Show a session's cookies: name, domain, path, Secure, expiry (values masked).")

  @OptionGroup var output: OutputOptions
  @Argument(help: ArgumentHelp("The session.", valueName: "NAME")) var name: String

  func validate() throws {
    if let problem = CookieSessionStore.problem(name: name) { throw ValidationError("\(name): \(problem)") }
  }

  func run(in context: Context) async throws {
    let store = try CookieSession.store(context)
    guard store.names().contains(name) else { throw SessionClear.unknown(name, store) }
    let rows = try store.read(name).cookies.map { cookie in
      JSONValue.object([
        JSONMember("name", .string(cookie.name)), JSONMember("value", .string("***")),
        JSONMember("domain", .string(cookie.hostOnly ? cookie.domain : "." + cookie.domain)),
        JSONMember("path", .string(cookie.path)), JSONMember("secure", .bool(cookie.secure)),
        JSONMember("expires", cookie.expires.flatMap(HTTPDate.format).map(JSONValue.string) ?? .null),
      ])
    }
    try ValuePrinter.print(.array(rows), output: output, context: context, tableByDefault: context.stdoutIsTerminal)
  }
}

/// `apx session clear NAME`: forgets a session.
struct SessionClear: ContextCommand {
  static let configuration = CommandConfiguration(commandName: "clear", abstract: "Delete a session and its cookies.")

  @Argument(help: ArgumentHelp("The session.", valueName: "NAME")) var name: String

  func validate() throws {
    if let problem = CookieSessionStore.problem(name: name) { throw ValidationError("\(name): \(problem)") }
  }

  func run(in context: Context) async throws {
    let store = try CookieSession.store(context)
    guard try store.delete(name) else { throw Self.unknown(name, store) }
    context.warn("apx: session \(name) cleared")
  }

  static func unknown(_ name: String, _ store: CookieSessionStore) -> APXError {
    let names = store.names()
    return APXError(
      .usage, "there is no session \"\(name)\"",
      hint: names.isEmpty
        ? "sessions are made by `apx call --session NAME ...`" : "stored sessions: \(names.joined(separator: ", "))")
  }
}
