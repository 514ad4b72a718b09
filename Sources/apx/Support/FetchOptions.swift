import APXCore
import APXRuntime
import ArgumentParser

/// How a command fetches what it reads from a server: a description at a URL (and the files its
/// `$ref`s reach), a gRPC server's reflection, a GraphQL server's introspection, the upstream
/// `apx mock --record` forwards to. `apx import` and `apx mock` share these flags; each command
/// says when they apply and refuses them otherwise (exit 2), so none is accepted and ignored.
struct FetchOptions: ParsableArguments {
  @Option(
    name: .customLong("timeout"),
    // A negative number is its value (checked, with a clear message), not an unknown flag.
    parsing: .unconditional,
    help: ArgumentHelp(
      "Give up fetching after this many seconds (default: 30, or 10 for reflection).",
      valueName: "SECONDS"))
  var timeout: Double?

  @Flag(
    name: .customLong("insecure"),
    help: "Skip TLS certificate verification of the server fetched from (prints a warning).")
  var insecure = false

  @Option(
    name: .customLong("cacert"),
    help: ArgumentHelp("Trust the CA certificates in this PEM file for the server fetched from.", valueName: "FILE"))
  var cacert: String?

  @OptionGroup var proxyOptions: ProxyOptions

  func validate() throws {
    if let timeout, !(timeout > 0 && timeout <= 86_400) {
      throw ValidationError("--timeout must be between 0 and 86400 seconds")
    }
  }

  /// The flags given, as typed.
  var given: [String] {
    [
      (timeout != nil, "--timeout"), (insecure, "--insecure"), (cacert != nil, "--cacert"),
      (proxyOptions.proxy != nil, "--proxy"), (proxyOptions.noproxy != nil, "--noproxy"),
    ].filter(\.0).map(\.1)
  }

  /// Refuses the flags in `flags` that were given, when nothing is fetched: "--insecure and
  /// --timeout apply only to WHERE".
  func refuse(_ flags: Set<String>? = nil, unless fetching: Bool, only where: String) throws {
    guard !fetching else { return }
    let stray = given.filter { flags?.contains($0) ?? true }
    guard !stray.isEmpty else { return }
    let names =
      stray.count == 1 ? stray[0] : stray.dropLast().joined(separator: ", ") + " and " + stray[stray.count - 1]
    throw ValidationError("\(names) appl\(stray.count == 1 ? "ies" : "y") only to \(`where`)")
  }

  /// The time limit: `--timeout`, else the command's default.
  func timeout(default seconds: Double) -> Double { timeout ?? seconds }

  /// The HTTP session's settings: TLS as the flags say, the proxy as for `apx call`.
  func httpSession(_ context: Context) throws -> HTTPSessionOptions {
    HTTPSessionOptions(
      insecure: insecure, caCertificatePath: cacert, trust: TrustStore.from(environment: context.environment),
      proxy: try proxyOptions.rules(context))
  }

  /// The gRPC connection's settings: TLS as the flags say, the proxy as for `apx call`.
  func grpcSettings(_ context: Context) throws -> GRPCSettings {
    var settings = GRPCSettings()
    settings.insecure = insecure
    settings.caCertificatePath = cacert
    settings.trust = TrustStore.from(environment: context.environment)
    settings.proxy = try proxyOptions.rules(context)
    return settings
  }

  /// Says on stderr that `--insecure` verifies nothing, once per command.
  func warnIfInsecure(_ context: Context) {
    if insecure { context.warn("apx: warning: --insecure: TLS certificates are not verified") }
  }
}
