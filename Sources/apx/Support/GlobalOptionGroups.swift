import APXCore
import ArgumentParser

/// `--registry`: where registry files are (every command that reads the registry).
struct RegistryOptions: ParsableArguments {
  @Option(
    name: .customLong("registry"),
    help: ArgumentHelp(
      "A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).",
      valueName: "DIR|FILE"), completion: .file(extensions: ["json"]))
  var registry: [String] = []
}

/// Which server an API's calls go to: `--env`, `--base-url`, `--demo`.
struct TargetOptions: ParsableArguments {
  @Option(
    name: .customLong("env"),
    help: ArgumentHelp(
      "The registry environment to call (else APX_ENV when the API has it, else the config file's, else the API's default_environment).",
      valueName: "NAME"),
    completion: .custom(EnvironmentCompletion.complete))
  var environment: String?

  @Option(
    name: .customLong("base-url"),
    help: ArgumentHelp("Call this base URL instead of the environment's.", valueName: "URL"))
  var baseURL: String?

  @Flag(
    name: .customLong("demo"), help: "Start the embedded demo backend on a free loopback port and point this run at it."
  )
  var demo = false
}

/// How results print: `-o`, `--select`, `-r`, `--color`.
struct OutputOptions: ParsableArguments {
  @Option(
    name: [.short, .customLong("output")],
    help: ArgumentHelp(
      "Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).", valueName: "FORMAT"))
  var output: OutputFormat?

  @Option(
    name: .customLong("select"),
    help: ArgumentHelp("Print only the values at this jq-style path, e.g. .data.items[].id", valueName: "PATH"))
  var select: String?

  @Flag(
    name: [.customShort("r"), .customLong("raw-output")],
    help: "Print string results as their text, without JSON quotes (like jq -r).")
  var rawOutput = false

  @Option(
    name: .customLong("color"),
    help: ArgumentHelp("Colour: auto, always or never (auto honours NO_COLOR).", valueName: "WHEN"))
  var color: ColorMode = .auto
}

/// How requests travel: headers, time limits, retries, `-v`, TLS trust and client certificate, proxies.
struct ConnectionOptions: ParsableArguments {
  @Option(
    name: [.customShort("H"), .customLong("header")],
    help: ArgumentHelp("Add a header, 'Name: value' (repeatable; 'Name:' removes one).", valueName: "HEADER"))
  var headers: [String] = []

  @Option(
    name: .customLong("timeout"),
    // A negative number is its value (checked, with a clear message), not an unknown flag.
    parsing: .unconditional,
    help: ArgumentHelp(
      "Give up after this many seconds (all attempts together; also bounds token requests and commands).",
      valueName: "SECONDS"))
  var timeout: Double?

  @Option(
    name: .customLong("connect-timeout"),
    parsing: .unconditional,
    help: ArgumentHelp("Give up connecting after this many seconds.", valueName: "SECONDS"))
  var connectTimeout: Double = Self.defaultConnectTimeout

  @Option(
    name: .customLong("retry"),
    parsing: .unconditional,
    help: ArgumentHelp("Maximum attempts for retryable failures (overrides the registry).", valueName: "N"))
  var retry: Int?

  @Flag(name: .customLong("no-retry"), help: "Never retry.")
  var noRetry = false

  @Flag(
    name: [.short, .customLong("verbose")], help: "Print requests, responses and retries to stderr (secrets masked).")
  var verbose = false

  @Flag(name: .customLong("insecure"), help: "Skip TLS certificate verification (prints a warning).")
  var insecure = false

  @Option(
    name: .customLong("cacert"),
    help: ArgumentHelp(
      "Trust the CA certificates in this PEM file (and SSL_CERT_FILE/SSL_CERT_DIR's) instead of the system store.",
      valueName: "FILE"))
  var cacert: String?

  @Option(
    name: .customLong("cert"),
    help: ArgumentHelp("Mutual TLS: the client certificate chain (PEM); https and grpcs only.", valueName: "FILE"))
  var cert: String?

  @Option(
    name: .customLong("key"),
    help: ArgumentHelp("Mutual TLS: the client certificate's private key (PEM).", valueName: "FILE"))
  var key: String?

  @Flag(name: .customLong("http1.1"), help: "Use HTTP/1.1 only (else HTTP/2 when a TLS server offers it).")
  var http1Only = false

  /// `--connect-timeout` when not given (curl and grpcurl lines leave it out then).
  static let defaultConnectTimeout = 10.0
  /// Accepted `--timeout` seconds: the same range as a recipe step's `timeout`.
  static let timeoutRange = 0.001...DurationConversion.maxSeconds
  /// Accepted `--connect-timeout` seconds: up to a day, as an endpoint's `timeout`.
  static let connectTimeoutRange = 0.001...86_400.0
}

/// gRPC only: `:authority`, message size, defaults in output.
struct GRPCOptions: ParsableArguments {
  @Option(
    name: .customLong("authority"),
    help: ArgumentHelp(
      "gRPC: send this :authority (and TLS server name) instead of the host.", valueName: "HOST[:PORT]"))
  var authority: String?

  @Option(
    name: .customLong("max-message-size"),
    parsing: .unconditional,
    help: ArgumentHelp(
      "gRPC and WebSocket: the largest message sent or received, in bytes (default 4 MiB for gRPC, 16 MiB for "
        + "WebSocket; a larger WebSocket message exits 9).", valueName: "BYTES"))
  var maxMessageSize: Int?

  @Flag(
    name: .customLong("emit-defaults"), help: "gRPC: print fields that hold their default value (0, \"\", [], false).")
  var emitDefaults = false

  /// Accepted `--max-message-size` bytes.
  static let maxMessageSizeRange = 1...4_294_967_295
}
