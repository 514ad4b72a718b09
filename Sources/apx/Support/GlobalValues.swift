import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The values of the global flags as plain data, whoever parsed them:
/// ArgumentParser (`GlobalOptions.values`) or `apx call`'s fast path
/// (`FastCallArguments`). Field names and defaults mirror `GlobalOptions`.
struct GlobalValues: Equatable {
  var registry: [String] = []
  var environment: String?
  var baseURL: String?
  var demo = false
  var output: OutputFormat?
  var select: String?
  var rawOutput = false
  var headers: [String] = []
  var timeout: Double?
  var connectTimeout: Double = 10
  var retry: Int?
  var noRetry = false
  var verbose = false
  var color: ColorMode = .auto
  var insecure = false
  var cacert: String?
  var cert: String?
  var key: String?
  var authority: String?
  var maxMessageSize: Int?
  var emitDefaults = false

  /// Why these values cannot be used together, or nil when they can.
  /// Shared by ArgumentParser's validation and the fast path (which hands
  /// any problem to ArgumentParser, so messages stay identical).
  var problem: String? {
    // Ranges are checked here, at the edge: downstream conversions to clock units would trap on 1e300.
    if let t = timeout, !Self.timeoutRange.contains(t) {
      return "--timeout must be a number of seconds from 0.001 to 1000000000, got \(NumberText.plain(t))"
    }
    if !Self.connectTimeoutRange.contains(connectTimeout) {
      return
        "--connect-timeout must be a number of seconds from 0.001 to 86400, got \(NumberText.plain(connectTimeout))"
    }
    if let r = retry, !(1...100).contains(r) { return "--retry must be from 1 to 100 attempts" }
    if rawOutput, output == .table {
      return "-r/--raw-output prints strings without JSON quotes; -o table has none to drop: use one or the other"
    }
    if retry != nil && noRetry { return "--retry and --no-retry cannot be used together" }
    if let m = maxMessageSize, !Self.maxMessageSizeRange.contains(m) {
      return "--max-message-size must be a number of bytes from 1 to 4294967295 (a gRPC length prefix is 32 bits)"
    }
    if let b = baseURL, let problem = BaseURLCheck.problem(b) { return "--base-url \(problem)" }
    if (cert == nil) != (key == nil) { return "--cert and --key go together (client certificate and its key)" }
    for h in headers where !h.contains(":") { return "-H '\(h)' needs the form 'Name: value'" }
    for h in headerFields {
      if let problem = HeaderSyntax.problem(name: h.name, value: h.value) { return "-H: \(problem)" }
    }
    return nil
  }

  /// Accepted `--timeout` seconds: the same range as a recipe step's `timeout`.
  static let timeoutRange = 0.001...DurationConversion.maxSeconds
  /// Accepted `--connect-timeout` seconds: up to a day, as an endpoint's `timeout`.
  static let connectTimeoutRange = 0.001...86_400.0
  /// Accepted `--max-message-size` bytes.
  static let maxMessageSizeRange = 1...4_294_967_295

  /// `-H` values as header fields.
  var headerFields: [HeaderField] {
    headers.compactMap { h in
      guard let colon = h.firstIndex(of: ":") else { return nil }
      let name = h[..<colon].trimmingWhitespace()
      let value = h[h.index(after: colon)...].trimmingWhitespace()
      return HeaderField(name, value)
    }
  }

  /// The gRPC flags as runtime settings; `SSL_CERT_FILE` / `SSL_CERT_DIR` in `environment` choose the trust store.
  func grpcSettings(_ environment: [String: String]) -> GRPCSettings {
    var settings = GRPCSettings(
      authority: authority, emitDefaults: emitDefaults, maxMessageSize: maxMessageSize, insecure: insecure,
      caCertificatePath: cacert, clientCertificatePath: cert, clientKeyPath: key)
    settings.trust = TrustStore.from(environment: environment)
    return settings
  }

  /// The HTTP transport flags as session options; `SSL_CERT_FILE` / `SSL_CERT_DIR` in `environment`
  /// choose the trust store.
  func sessionOptions(_ environment: [String: String]) -> HTTPSessionOptions {
    HTTPSessionOptions(
      connectTimeout: connectTimeout, insecure: insecure, caCertificatePath: cacert,
      trust: TrustStore.from(environment: environment))
  }
}
