import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CallCommand {
  /// Several registry JSON-RPC calls of one API joined with `+`, sent as one batch request.
  func runBatch(_ calls: [(target: String, params: [String])], registry: RegistryFiles, context: Context)
    async throws
  {
    var prepared: [PreparedCall] = []
    for call in calls {
      let items = try call.params.map { text throws(APXError) in try RequestItem(parsing: text) }
      let one = try PreparedCall.registry(target: call.target, items: items, registry: registry)
      guard one.endpoint.kind.batches else {
        throw APXError(
          .usage, "\(call.target) is a \(one.endpoint.kind.rawValue) endpoint: only JSON-RPC calls can be batched",
          hint: "call it on its own, without +")
      }
      guard one.api.name == prepared.first?.api.name ?? one.api.name else {
        throw APXError(
          .usage, "a batch goes to one API, but it names \(prepared[0].api.name) and \(one.api.name)",
          hint: "batch endpoints of one API")
      }
      prepared.append(one)
    }
    if sse || !untilEvent.isEmpty { throw APXError(.usage, "--sse and --until-event do not apply to a JSON-RPC batch") }
    if requestMethod != nil { throw APXError(.usage, "-X does not apply to a JSON-RPC batch, which is one POST") }
    let tokenOverride = try tokenStdin ? Self.readTokenFromStdin() : bearer
    var extraHeaders: [HeaderField] = []
    if let basicAuth {
      extraHeaders.append(HeaderField("Authorization", "Basic \(Data(basicAuth.utf8).base64EncodedString())"))
    }
    if noAuth || basicAuth != nil || tokenOverride != nil {
      for index in prepared.indices { prepared[index].endpoint.auth = AuthConfig.none }
    }
    var stdinReader = StdinDocument()
    var bound: [[(name: String, value: BoundValue)]] = []
    for one in prepared {
      let assembled = try ArgumentReader.bind(one.arguments, endpoint: one.endpoint, stdin: &stdinReader)
      if assembled.body != nil {
        throw APXError(
          .usage, "a JSON-RPC call in a batch takes its params by name or position, not a top-level array ([]=…)",
          hint: "give each param as name=value")
      }
      bound.append(assembled.values)
    }
    if global.insecure { context.warn("apx: warning: --insecure: TLS certificates are not verified") }
    let global = try self.global.applyingConfig(context)
    let maxEvents = self.maxEvents
    let first = prepared[0]
    try await DemoBackend.withOptionalDemo(global.demo) { demo in
      let resolved = try BaseURLResolver.resolve(
        api: first.api, environment: global.environment, override: global.baseURL, demo: demo,
        processEnvironment: context.environment,
        configured: context.configuredEnvironment(for: first.api.name))
      let requests = zip(prepared, bound).map { one, values in
        CallRequest(
          api: one.api, endpoint: one.endpoint, baseURL: resolved.baseURL, environmentName: resolved.environmentName,
          values: values, headers: extraHeaders + global.headerFields + one.headers, timeout: global.timeout,
          maxEvents: maxEvents, maxAttemptsOverride: global.noRetry ? 1 : global.retry)
      }
      if let mode = previewMode {
        return try await preview(requests, mode: mode, global: global, context: context, tokenOverride: tokenOverride)
      }
      try await harOption.recording { har in
        try await Self.execute(
          requests, global: global, context: context, tokenOverride: tokenOverride, outputFile: outputFile,
          records: RunRecords(cookieSession: cookieSession.name, har: har), include: include)
      }
    }
  }
}
