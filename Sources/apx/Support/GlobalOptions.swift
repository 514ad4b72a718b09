import APXCore
import APXRuntime
public import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Options every command that calls or inspects endpoints accepts, in the groups `--help`
/// shows under their own headings. A command that needs only some takes only those groups
/// (`apx validate`: `RegistryOptions`), so its help lists only what it uses.
///
/// The groups are the only declaration of these flags: `global.timeout` reads
/// `connectionOptions.timeout` through dynamic member lookup, so no second list of names
/// (a mirror struct, forwarding properties) can drift from them.
@dynamicMemberLookup
struct GlobalOptions: ParsableArguments {
  @OptionGroup(title: "Registry options") var registryOptions: RegistryOptions
  @OptionGroup(title: "Registry options") var targetOptions: TargetOptions
  @OptionGroup(title: "Output options") var outputOptions: OutputOptions
  @OptionGroup(title: "Connection options") var connectionOptions: ConnectionOptions
  @OptionGroup(title: "Connection options") var proxyOptions: ProxyOptions
  @OptionGroup(title: "gRPC options") var grpcOptions: GRPCOptions

  /// A flag of any group, read by its own name (`global.registry`, `global.timeout`).
  subscript<Value>(dynamicMember path: KeyPath<RegistryOptions, Value>) -> Value { registryOptions[keyPath: path] }
  subscript<Value>(dynamicMember path: KeyPath<TargetOptions, Value>) -> Value { targetOptions[keyPath: path] }
  subscript<Value>(dynamicMember path: KeyPath<OutputOptions, Value>) -> Value { outputOptions[keyPath: path] }
  subscript<Value>(dynamicMember path: KeyPath<ConnectionOptions, Value>) -> Value {
    connectionOptions[keyPath: path]
  }
  subscript<Value>(dynamicMember path: KeyPath<GRPCOptions, Value>) -> Value { grpcOptions[keyPath: path] }
  subscript<Value>(dynamicMember path: KeyPath<ProxyOptions, Value>) -> Value { proxyOptions[keyPath: path] }

  func validate() throws {
    if let problem { throw ValidationError(problem) }
  }

  /// Why these values cannot be used together, or nil when they can. Checked when the line
  /// is parsed, and again once the config file's defaults are filled in (`applyingConfig`).
  var problem: String? {
    // Ranges are checked here, at the edge: downstream conversions to clock units would trap on 1e300.
    if let t = self.timeout, !ConnectionOptions.timeoutRange.contains(t) {
      return "--timeout must be a number of seconds from 0.001 to 1000000000, got \(NumberText.plain(t))"
    }
    if !ConnectionOptions.connectTimeoutRange.contains(self.connectTimeout) {
      return
        "--connect-timeout must be a number of seconds from 0.001 to 86400, got \(NumberText.plain(self.connectTimeout))"
    }
    if let r = self.retry, !(1...100).contains(r) { return "--retry must be from 1 to 100 attempts" }
    if let problem = outputOptions.problem { return problem }
    if self.retry != nil && self.noRetry { return "--retry and --no-retry cannot be used together" }
    if let m = self.maxMessageSize, !GRPCOptions.maxMessageSizeRange.contains(m) {
      return "--max-message-size must be a number of bytes from 1 to 4294967295 (a gRPC length prefix is 32 bits)"
    }
    if let b = self.baseURL, let problem = BaseURLCheck.problem(b) { return "--base-url \(problem)" }
    if (self.cert == nil) != (self.key == nil) {
      return "--cert and --key go together (client certificate and its key)"
    }
    for h in self.headers where !h.contains(":") { return "-H '\(h)' needs the form 'Name: value'" }
    for h in headerFields {
      if let problem = HeaderSyntax.problem(name: h.name, value: h.value) { return "-H: \(problem)" }
    }
    return nil
  }

  /// `-H` values as header fields.
  var headerFields: [HeaderField] {
    self.headers.compactMap { h in
      guard let colon = h.firstIndex(of: ":") else { return nil }
      let name = h[..<colon].trimmingWhitespace()
      let value = h[h.index(after: colon)...].trimmingWhitespace()
      return HeaderField(name, value)
    }
  }

  /// The gRPC flags as runtime settings; `SSL_CERT_FILE` / `SSL_CERT_DIR` in `environment` choose the trust store.
  /// Exit 2 for a proxy URL apx cannot use.
  func grpcSettings(_ environment: [String: String], tls: TLSFiles? = nil) throws(APXError) -> GRPCSettings {
    let files = try TLSChoice(flags: self, registry: tls, environment: environment)
    var settings = GRPCSettings(
      authority: self.authority, emitDefaults: self.emitDefaults, maxMessageSize: self.maxMessageSize,
      insecure: self.insecure, caCertificatePath: files.ca, clientCertificatePath: files.certificate?.certificatePath,
      clientKeyPath: files.certificate?.keyPath)
    settings.clientKeyPassphrase = files.certificate?.passphrase
    settings.trust = TrustStore.from(environment: environment)
    settings.proxy = try ProxyRules(flag: self.proxy, noProxyFlag: self.noproxy, environment: environment)
    settings.connectTimeout = self.connectTimeout
    return settings
  }

  /// The HTTP transport flags as session options; `SSL_CERT_FILE` / `SSL_CERT_DIR` in `environment`
  /// choose the trust store, and its proxy variables the proxies (`ProxyRules`). Exit 2 for a
  /// proxy URL apx cannot use.
  func sessionOptions(_ environment: [String: String], tls: TLSFiles? = nil) throws(APXError) -> HTTPSessionOptions {
    let files = try TLSChoice(flags: self, registry: tls, environment: environment)
    return HTTPSessionOptions(
      connectTimeout: self.connectTimeout, insecure: self.insecure, caCertificatePath: files.ca,
      trust: TrustStore.from(environment: environment), clientCertificate: files.certificate,
      proxy: try ProxyRules(flag: self.proxy, noProxyFlag: self.noproxy, environment: environment),
      http1Only: self.http1Only)
  }
}

extension OutputOptions {
  /// Why the output flags cannot be used together, or nil (also checked by `apx validate`,
  /// which takes only this group).
  var problem: String? {
    if rawOutput, output == .table {
      return "-r/--raw-output prints strings without JSON quotes; -o table has none to drop: use one or the other"
    }
    return nil
  }
}

extension OutputFormat: ExpressibleByArgument {}

extension ColorMode: ExpressibleByArgument {}
