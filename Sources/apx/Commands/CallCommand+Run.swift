import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Running a parsed `apx call`.
extension CallCommand {
  /// Resolves the endpoint (from the registry, or made on the spot for a URL), binds the
  /// items, and runs the call with output on stdout.
  func run(in context: Context) async throws {
    let registry = RegistryFiles(directories: context.registryDirectories(global.registry))
    let calls = self.calls
    if calls.count > 1 { return try await runBatch(calls, registry: registry, context: context) }
    let tokenOverride = try tokenStdin ? Self.readTokenFromStdin() : bearer
    let global = try self.global.applyingConfig(context)
    var extraHeaders: [HeaderField] = []
    var prepared: PreparedCall
    if var call = try AdHocCall.parse(target: target, items: params) {
      if let requestMethod {
        if let method = call.method, method != requestMethod {
          throw APXError(
            .usage, "-X \(requestMethod) and the METHOD \(method) before the URL disagree",
            hint: "give the method once: apx call \(requestMethod) URL, or apx call -X \(requestMethod) URL")
        }
        call.method = requestMethod
      }
      prepared = try call.prepare(self, registry: registry, context: context)
    } else {
      if let requestMethod {
        throw APXError(
          .usage, "-X \(requestMethod) goes with a URL; the registry says the method of \(target)",
          hint: "drop -X, or call the URL: apx call -X \(requestMethod) https://HOST/PATH")
      }
      let items = try params.map { text throws(APXError) in try RequestItem(parsing: text) }
      prepared = try PreparedCall.registry(target: target, items: items, registry: registry)
    }
    try applyStreamFlags(to: &prepared)
    if prepared.endpoint.graphql == nil, graphQL.document != nil, !prepared.adHoc {
      throw APXError(
        .usage, "--graphql goes with a URL; \(target) is a registry endpoint",
        hint: "call the GraphQL server's URL: apx call https://HOST/graphql --graphql '{ ... }'")
    }
    try graphQL.apply(to: &prepared.endpoint, target: target)
    try webSocket.apply(
      to: &prepared.endpoint, target: target,
      stdinLines: prepared.adHoc && data == nil && !prepared.endpoint.params.contains { $0.location == .body }
        && !tokenStdin && !WebSocketOptionGroup.stdinIsTerminal, maxMessageSize: global.maxMessageSize)
    if all, prepared.endpoint.pagesToFollow == nil {
      throw APXError(
        .usage,
        "--all follows pages, and \(target) is \(prepared.endpoint.kind.withArticle) endpoint that declares none",
        hint: "declare a \"pagination\" block for it in the registry (docs/registry.md, Pagination), or drop --all")
    }
    if noAuth || basicAuth != nil || tokenOverride != nil { prepared.endpoint.auth = AuthConfig.none }
    if let basicAuth {
      let encoded = Data(basicAuth.utf8).base64EncodedString()
      extraHeaders.append(HeaderField("Authorization", "Basic \(encoded)"))
    }
    var stdinReader = StdinDocument()
    let bound = try ArgumentReader.bind(prepared.arguments, endpoint: prepared.endpoint, stdin: &stdinReader)
    let values = bound.values
    if prepared.adHoc { AdHocEndpoint.settleTypes(&prepared.endpoint, values: values) }
    var body = try data.map { text throws(APXError) in try ArgumentReader.dataBody(text) }
    if let array = bound.body {
      body = try ArgumentReader.arrayBody(array, endpoint: prepared.endpoint, hasData: body != nil)
    }
    let savePlan = try save.map { target in
      let save = try AdHocSave(target)
      guard let url = prepared.url else {
        throw APXError(
          .usage, "--save writes an ad-hoc call (a URL) into the registry; \(target) is already there")
      }
      let call = AdHocSave.Call(
        endpoint: prepared.endpoint, url: url, fixedBaseURL: prepared.fixedBaseURL, headers: prepared.headers,
        untilEvent: prepared.untilEvent)
      let plan = try save.plan(call, values: values, data: body, registry: registry)
      plan.warnings.forEach(context.warn)
      return plan
    }
    if let problem = ProtocolFlagCheck.problem(global, kind: prepared.endpoint.kind) { throw problem }
    if include, !prepared.endpoint.kind.takes(.include) {
      throw APXError(
        .usage, "-i prints an HTTP answer's status line and headers; a gRPC answer has metadata instead",
        hint: "drop -i; -v shows the response headers and trailers on stderr")
    }
    if global.insecure { context.warn("apx: warning: --insecure: TLS certificates are not verified") }
    if continueDownload, !prepared.endpoint.kind.takes(.continueDownload) || prepared.endpoint.method != "GET" {
      // Resuming sends the request again: only a GET of a REST answer may be, and has byte ranges.
      throw APXError(
        .usage,
        "--continue resumes a GET download, and this call is "
          + (prepared.endpoint.kind.takes(.continueDownload)
            ? "a \(prepared.endpoint.method)" : prepared.endpoint.kind.withArticle + " call"),
        hint: "a request that is not a GET is never sent again to resume it: drop --continue")
    }
    let download =
      try continueDownload ? outputFile.map { path throws(APXError) in try ContinuedDownload(path: path) } : nil
    let headers = extraHeaders + global.headerFields + prepared.headers + (download?.requestHeaders ?? [])
    if let note = download?.note { context.warn(note) }

    try await DemoBackend.withOptionalDemo(global.demo) { demo in
      let resolved =
        try prepared.fixedBaseURL.map {
          BaseURLResolver.Resolved(baseURL: $0, environmentName: prepared.environmentName)
        }
        ?? BaseURLResolver.resolve(
          api: prepared.api, environment: global.environment, override: global.baseURL, demo: demo,
          processEnvironment: context.environment,
          configured: context.configuredEnvironment(for: prepared.api.name))
      var request = CallRequest(
        api: prepared.api, endpoint: prepared.endpoint, baseURL: resolved.baseURL,
        environmentName: resolved.environmentName,
        values: values, data: body, headers: headers, timeout: global.timeout, maxEvents: maxEvents,
        maxAttemptsOverride: global.noRetry ? 1 : global.retry)
      request.targetIsURL = prepared.adHoc
      request.untilEvent = prepared.untilEvent
      if global.verbose, let note = prepared.note { context.warn(note) }
      if let mode = previewMode {
        return try await preview([request], mode: mode, global: global, context: context, tokenOverride: tokenOverride)
      }
      try await harOption.recording { har in
        let records = RunRecords(cookieSession: cookieSession.name, har: har)
        if let download {
          return try await Self.execute(
            request, global: global, context: context, tokenOverride: tokenOverride, download: download,
            records: records)
        }
        try await Self.execute(
          [request], global: global, context: context, tokenOverride: tokenOverride, outputFile: outputFile,
          paging: all ? Paging(maxItems: maxItems, maxPages: maxPages) : nil, records: records, include: include)
      }
    }
    if let savePlan, let save {
      try AdHocSave.write(savePlan)
      context.warn("apx: saved as \(save) in \(savePlan.path); call it with: apx call \(save)")
    }
  }

  /// What a call's run keeps besides its output: the cookie session (`--session`) and the
  /// HTTP archive (`--har`).
  struct RunRecords {
    var cookieSession: String? = nil
    var har: HARLog? = nil
  }

  /// Runs one call, or several JSON-RPC calls as one batch, with output on stdout.
  /// - Parameter include: `-i`: each answer's head goes to stdout before its body.
  static func execute(
    _ requests: [CallRequest], global: GlobalOptions, context: Context, tokenOverride: String?, outputFile: String?,
    paging: Paging? = nil, records: RunRecords = RunRecords(), include: Bool = false
  ) async throws {
    guard let outputFile else {
      var settings = try OutputSettings.make(global, context: context)
      settings.includeHead = include
      let printer = CallPrinter(context: context, settings: settings)
      return try await execute(
        requests, global: global, context: context, tokenOverride: tokenOverride, printer: printer, paging: paging,
        records: records)
    }
    let file = try OutputFile(path: outputFile)
    do {
      let settings = try OutputSettings.make(global, context: context, toFile: true)
      let printer = CallPrinter(context: context, settings: settings, out: file.stream)
      try await execute(
        requests, global: global, context: context, tokenOverride: tokenOverride, printer: printer, paging: paging,
        records: records)
    } catch {
      file.discard()
      throw error
    }
    try file.commit()
  }

  /// Runs one call whose body continues `download` (`-O FILE --continue`).
  static func execute(
    _ request: CallRequest, global: GlobalOptions, context: Context, tokenOverride: String?,
    download: ContinuedDownload, records: RunRecords
  ) async throws {
    do {
      let settings = try OutputSettings.make(global, context: context, toFile: true)
      let printer = CallPrinter(context: context, settings: settings, out: download.stream)
      printer.onResponseHead = { status, headers in
        try download.accept(status: status, headers: headers) { context.warn($0) }
      }
      try await execute(
        [request], global: global, context: context, tokenOverride: tokenOverride, printer: printer, paging: nil,
        records: records)
    } catch {
      if download.alreadyWhole {
        try download.finishWhole()
        context.warn("apx: \(download.path) is whole already: the server has no bytes past byte \(download.offset)")
        return
      }
      download.keep()
      throw error
    }
    try download.commit()
  }

  private static func execute(
    _ requests: [CallRequest], global: GlobalOptions, context: Context, tokenOverride: String?, printer: CallPrinter,
    paging: Paging?, records: RunRecords
  ) async throws {
    do {
      try await run(
        requests, global: global, context: context, tokenOverride: tokenOverride, printer: printer, paging: paging,
        records: records)
    } catch var error as APXError where printer.printedFailedAnswer {
      // The body is on stdout; stderr keeps the status line and the hint.
      error.cause = nil
      throw error
    }
  }

  private static func run(
    _ requests: [CallRequest], global: GlobalOptions, context: Context, tokenOverride: String?, printer: CallPrinter,
    paging: Paging?, records: RunRecords
  ) async throws {
    let tls = try RegistryTLS.one(of: requests.map { ($0.api, $0.environmentName, $0.baseURL) })
    _ = try await context.withCallStack(
      global, tls: tls, cookieSession: records.cookieSession, tokenOverride: tokenOverride, har: records.har,
      observe: VerboseLines.tokenRequests(context, verbose: global.verbose, har: records.har),
      apis: requests.map(\.api)
    ) { stack in
      let executor = stack.executor
      if requests.count > 1 { return try await executor.call(batch: requests, sink: printer) }
      if let paging {
        return try await Paginator(executor: executor, maxItems: paging.maxItems, maxPages: paging.maxPages)
          .call(requests[0], sink: printer)
      }
      return try await executor.call(requests[0], sink: printer)
    }
  }

  /// `--sse` makes an ad-hoc endpoint a stream; `--until-event` adds stop events to any
  /// stream, and to a REST call, whose answer may be an event stream (followed by the SSE
  /// layer; any other answer to it is then a usage error).
  private func applyStreamFlags(to prepared: inout PreparedCall) throws {
    if sse {
      guard prepared.adHoc else {
        throw APXError(
          .usage, "--sse goes with a URL; the registry says what kind \(target) is",
          hint: "drop --sse (apx describe \(target) shows its kind)")
      }
      prepared.endpoint.options = .sse(prepared.endpoint.options.route, SSEOptions())
    }
    guard !untilEvent.isEmpty else { return }
    guard prepared.endpoint.kind.takes(.untilEvent) else {
      throw APXError(
        .usage, "--until-event stops an event stream, and this call is \(prepared.endpoint.kind.rawValue)",
        hint: "use it with an sse endpoint, or a REST call whose answer is text/event-stream; "
          + "stop a gRPC stream with --max-events N")
    }
    prepared.untilEvent = untilEvent
  }

  /// The token piped in for `--token-stdin` (whitespace trimmed).
  static func readTokenFromStdin() throws -> String {
    let data = try StandardInput.readAll()
    let token = String(decoding: data, as: UTF8.self).trimmingWhitespaceAndNewlines()
    guard !token.isEmpty else {
      throw APXError(
        .usage, "--token-stdin: stdin was empty",
        hint: "pipe the token in: apx auth token API | apx call --token-stdin ...")
    }
    guard !token.contains(where: \.isNewline) else {
      throw APXError(.usage, "--token-stdin: stdin holds more than one line", hint: "pipe in the token alone")
    }
    return token
  }
}
