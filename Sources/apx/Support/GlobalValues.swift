import APXCore
import APXRuntime
import Foundation

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
    if let t = timeout, !(t > 0 && t.isFinite) { return "--timeout must be a positive number of seconds" }
    if !(connectTimeout > 0 && connectTimeout.isFinite) {
      return "--connect-timeout must be a positive number of seconds"
    }
    if let r = retry, !(1...100).contains(r) { return "--retry must be from 1 to 100 attempts" }
    if retry != nil && noRetry { return "--retry and --no-retry cannot be used together" }
    if let m = maxMessageSize, m < 1 { return "--max-message-size must be a positive number of bytes" }
    if (cert == nil) != (key == nil) { return "--cert and --key go together (client certificate and its key)" }
    for h in headers where !h.contains(":") { return "-H '\(h)' needs the form 'Name: value'" }
    return nil
  }

  /// `-H` values as header fields.
  var headerFields: [HeaderField] {
    headers.compactMap { h in
      guard let colon = h.firstIndex(of: ":") else { return nil }
      let name = h[..<colon].trimmingCharacters(in: .whitespaces)
      let value = h[h.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      return HeaderField(name, value)
    }
  }

  /// The gRPC flags as runtime settings.
  var grpcSettings: GRPCSettings {
    GRPCSettings(
      authority: authority, emitDefaults: emitDefaults, maxMessageSize: maxMessageSize, insecure: insecure,
      caCertificatePath: cacert, clientCertificatePath: cert, clientKeyPath: key)
  }
}
