import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apx call --dry-run` and `--curl`: the request resolved as a real call resolves
/// it, shown instead of sent.
extension CallCommand {
  enum PreviewMode {
    /// `--dry-run`: JSON on stdout.
    case json
    /// `--curl`: a curl (gRPC: grpcurl) command line on stdout.
    case curl
  }

  var previewMode: PreviewMode? { dryRun ? .json : curl ? .curl : nil }

  /// Why the preview flags cannot go with the others, or nil.
  var previewProblem: String? {
    if dryRun && curl { return "--dry-run prints the request as JSON and --curl as a command line: use one" }
    guard let flag = dryRun ? "--dry-run" : curl ? "--curl" : nil else {
      return showSecrets ? "--show-secrets goes with --dry-run or --curl (a call never prints its secrets)" : nil
    }
    if save != nil { return "\(flag) sends nothing, so no call succeeds for --save to keep: drop one of them" }
    if include { return "\(flag) sends nothing, so no answer has a head for -i to print: drop -i" }
    if outputFile != nil {
      return "\(flag) sends nothing, so there is no body for -O to write: redirect stdout instead (> FILE)"
    }
    if curl {
      if global.output != nil || global.select != nil || global.rawOutput {
        return "--curl prints a command line, which -o, -r and --select do not shape: drop them, or use --dry-run"
      }
      if maxEvents != nil || !untilEvent.isEmpty {
        return "curl cannot stop a stream after N events or at an event type: drop --max-events and --until-event,"
          + " or use --dry-run"
      }
      if global.demo {
        return "--curl with --demo: the demo backend stops when apx exits, so the line would reach nothing;"
          + " run `apx demo` in another terminal and pass its URL with --base-url"
      }
    }
    return nil
  }

  /// Resolves `requests` (one call, or a JSON-RPC batch) without sending anything or fetching
  /// a token, and prints them as `mode` asks; says on stderr what was masked or left out.
  ///
  /// - Parameter global: the global flags with the config file's defaults applied.
  func preview(
    _ requests: [CallRequest], mode: PreviewMode, global: GlobalOptions, context: Context, tokenOverride: String?
  ) async throws {
    let store = try TokenStore.standard(environment: context.environment)
    // Stored secrets are read, and masked in what is shown like every other credential.
    let environment = try await KeychainSecrets.load(
      for: requests.map(\.api), into: context.environment, store: store)
    let tokens = StoredTokenSource(store: store, environment: environment)
    // The executor wants a session (JSON-RPC's transport holds one); nothing goes through it.
    let options = CallStack.Options(
      http: try global.sessionOptions(context.environment), closing: .graceful, environment: environment,
      tokens: .source(tokens), tokenOverride: tokenOverride)
    let preview = try await CallStack.with(options) { stack in try await stack.executor.preview(requests) }
    for (api, environment) in tokens.missing {
      context.warn(
        "apx: no usable stored token for the API \"\(api)\" (environment \"\(environment)\"), and \(mode.flag)"
          + " fetches none: the request shows \(StoredTokenSource.placeholder); get one with: apx auth login \(api)"
          + (environment.isEmpty ? "" : " --env \(environment)"))
    }
    if case .grpc(let g) = preview {
      for name in g.ignoredMetadata { context.warn("apx: metadata \"\(name)\" is set by gRPC itself; left out") }
      if !g.checked {
        context.warn(
          "apx: the message was not checked against the schema: it comes from server reflection, which \(mode.flag)"
            + " does not ask; names are sent as written")
      }
    }
    if mode == .curl, case .http(let http) = preview, http.kind == .websocket, requests[0].endpoint.graphql == nil,
      http.plan.body != .none
    {
      throw APXError(
        .usage, "curl cannot send WebSocket messages from its command line, and this call sends one when it opens",
        hint:
          "--dry-run shows the handshake and the first message; without messages to send, --curl prints curl's ws:// line"
      )
    }
    if mode == .curl, case .http(let http) = preview, http.kind == .websocket, requests[0].endpoint.graphql != nil {
      throw APXError(
        .usage, "curl cannot speak graphql-transport-ws, which carries this subscription",
        hint: "--graphql-transport sse gives a curl line (GraphQL over SSE); --dry-run shows the subscribe message")
    }
    let shown = try render(preview, mode: mode, masked: !showSecrets, global: global)
    if !showSecrets, try render(preview, mode: mode, masked: false, global: global) != shown {
      context.warn("apx: secrets are shown as ***; add --show-secrets to include them")
    }
    switch mode {
    case .json:
      let printer = CallPrinter(context: context, settings: try OutputSettings.make(global, context: context))
      try printer.receive(.bodyChunk(BodyChunk(Array(shown.utf8))))
      try printer.receive(.bodyEnd)
    case .curl:
      context.stdout.write(shown + "\n")
      context.stdout.flush()
    }
  }

  /// The text `mode` prints for `preview`.
  func render(_ preview: RequestPreview, mode: PreviewMode, masked: Bool, global: GlobalOptions) throws(APXError)
    -> String
  {
    switch (mode, preview) {
    case (.json, _):
      return JSONPrinter(style: .compact).string(preview.json(masked: masked))
    case (.curl, .http(let http)):
      return ShellWords.line(try CurlCommandLine.words(http, masked: masked, global: global))
    case (.curl, .grpc(let grpc)):
      return ShellWords.line(try GRPCurlCommandLine.words(grpc, masked: masked, global: global))
    }
  }
}

extension CallCommand.PreviewMode {
  var flag: String {
    switch self {
    case .json: "--dry-run"
    case .curl: "--curl"
    }
  }
}
