import APXCore
import APXGRPCMock
import APXMock
import APXRuntime
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension MockCommand {
  /// The flags `--record` needs, and those that cannot apply to it.
  func validateRecording() throws {
    guard let record else {
      let stray = [("--upstream", upstream != nil), ("--grpc-upstream", grpcUpstream != nil)].filter(\.1).map(\.0)
      if !stray.isEmpty { throw ValidationError("\(stray.joined(separator: ", ")) go with --record DIR") }
      let lower = openapi?.lowercased() ?? ""
      let fetches = lower.hasPrefix("http://") || lower.hasPrefix("https://") || (openapi != nil && allowRemoteRefs)
      try fetch.refuse(
        ["--timeout", "--proxy", "--noproxy"], unless: fetches,
        only: "fetching --openapi URL (or its $refs, with --allow-remote-refs)")
      try fetch.refuse(
        ["--insecure", "--cacert"], unless: fetches,
        only: "fetching --openapi URL (or its $refs, with --allow-remote-refs) and --record's upstream")
      if fullSpeed, replay.isEmpty { throw ValidationError("--full-speed goes with --replay") }
      return
    }
    guard !record.isEmpty else { throw ValidationError("--record needs a folder") }
    guard upstream != nil || grpcUpstream != nil else {
      throw ValidationError(
        "--record needs --upstream URL (HTTP) or --grpc-upstream URL (gRPC): the server whose exchanges it records")
    }
    let lower = upstream?.lowercased() ?? ""
    if let upstream {
      guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
        throw ValidationError(
          "--upstream must be an http:// or https:// URL, got \(upstream) (a gRPC server goes to --grpc-upstream)")
      }
      guard !upstream.contains("?"), !upstream.contains("#") else {
        throw ValidationError("--upstream is an origin and base path, without a query or fragment: \(upstream)")
      }
      guard !RecordingProxy.isOwnAddress(upstream: upstream, port: port) else {
        throw ValidationError(
          "--upstream \(upstream) is this proxy's own address (--port \(port)): every request would come back to it; give the real server"
        )
      }
    }
    let grpcLower = grpcUpstream?.lowercased() ?? ""
    if let grpcUpstream, !(grpcLower.hasPrefix("grpc://") || grpcLower.hasPrefix("grpcs://")) {
      throw ValidationError("--grpc-upstream must be a grpc:// or grpcs:// address, got \(grpcUpstream)")
    }
    // A recording proxy forwards to its upstream directly, within each request's own time.
    try fetch.refuse(["--timeout", "--proxy", "--noproxy"], unless: false, only: "fetching --openapi URL")
    if fetch.insecure || fetch.cacert != nil, !lower.hasPrefix("https://"), !grpcLower.hasPrefix("grpcs://") {
      throw ValidationError("--insecure and --cacert apply only to an https:// or grpcs:// upstream")
    }
    let refused = [
      ("API names", !apis.isEmpty), ("--registry", !registryOptions.registry.isEmpty), ("--openapi", openapi != nil),
      ("--replay", !replay.isEmpty), ("--full-speed", fullSpeed), ("--latency", latency != nil),
      ("--fail-rate", failRate != 0), ("--fail-status", failStatus != 503), ("--drop-every", dropEvery != 0),
      ("--sse-events", sseEvents != 10), ("--stateful", stateful), ("--seed", seed != 0),
      ("--token-lifetime", tokenLifetime != 3600),
      ("--max-generated-size", maxGeneratedSize != MockOptions.defaultMaxGeneratedSize),
      ("--grpc-port without --grpc-upstream", grpcPort != 4770 && grpcUpstream == nil),
    ].filter(\.1).map(\.0)
    if !refused.isEmpty {
      throw ValidationError(
        "\(refused.joined(separator: ", ")) cannot be used with --record: it forwards to the upstream as it is")
    }
  }

  /// `--record DIR --upstream URL`: a proxy that forwards every request and records the exchanges.
  func runRecord(in context: Context) async throws {
    guard let record else { return }
    let archive = try RecordingArchive(directory: record, creatorVersion: APXVersion.current)
    fetch.warnIfInsecure(context)
    let session = HTTPSessionOptions(
      insecure: fetch.insecure, caCertificatePath: fetch.cacert,
      trust: TrustStore.from(environment: context.environment))
    var grpcSettings = GRPCSettings(insecure: fetch.insecure, caCertificatePath: fetch.cacert)
    grpcSettings.trust = session.trust
    let settings = grpcSettings
    // Ctrl-C cancels, so that exchanges under way are written before the process ends.
    try await StopSignals.run { try await self.serve(archive, session: session, settings: settings, context: context) }
  }

  private func serve(
    _ archive: RecordingArchive, session: HTTPSessionOptions, settings: GRPCSettings, context: Context
  ) async throws {
    let options = CallStack.Options(http: session, grpc: settings, closing: .graceful, environment: context.environment)
    try await CallStack.with(options) { stack in
      let relay = try await grpcRelay(archive: archive, session: stack.grpc, context: context)
      do {
        try await serveRecording(into: archive, http: stack.session, relay: relay, context: context)
      } catch {
        await relay?.server.stop()
        throw error
      }
      await relay?.server.stop()
    }
  }

  /// With `--grpc-upstream`: the gRPC proxy on `--grpc-port`, listening, and its address.
  private func grpcRelay(archive: RecordingArchive, session: GRPCSession?, context: Context) async throws
    -> (server: GRPCRelayServer, url: String)?
  {
    guard let grpcUpstream, let session else { return nil }
    let proxy = try await GRPCRecordingProxy.connect(upstream: grpcUpstream, session: session, archive: archive)
    let relay = try await listeningGRPC {
      try await GRPCRelayServer.start(
        methods: proxy.methods, descriptorSet: proxy.descriptorSet, host: host, port: grpcPort,
        forward: proxy.forward)
    }
    context.warn("apx mock: recording \(proxy.target)'s \(proxy.methods.count) methods into \(archive.path)")
    return relay
  }

  /// Serves until Ctrl-C, or until the archive cannot be written.
  private func serveRecording(
    into archive: RecordingArchive, http: HTTPSession, relay: (server: GRPCRelayServer, url: String)?,
    context: Context
  ) async throws {
    let grpcAddress = relay.map { [(api: "record.grpc", url: $0.url)] } ?? []
    var server: MockServer?
    if let upstream {
      let proxy = RecordingProxy(upstream: upstream, session: http, archive: archive) { context.warn($0) }
      server = try await listening(in: context, more: grpcAddress) {
        try await MockServer.startProxy(
          name: "record", options: MockOptions(host: host, port: port), forward: proxy.forward)
      }
      context.warn("apx mock: recording \(proxy.upstream) into \(archive.path)")
    } else {
      let info = JSONValue.object(grpcAddress.map { JSONMember($0.api, .string($0.url)) })
      context.stdout.write(JSONPrinter(style: .compact).bytes(info) + [0x0A])
      context.stdout.flush()
    }
    for (name, url) in (server?.addresses ?? []) + grpcAddress { context.warn("apx mock: \(name) listening on \(url)") }
    context.warn("apx mock: Ctrl-C stops it")
    let running = server
    // On Ctrl-C, what is under way is written at once, before the servers wind down.
    try await withTaskCancellationHandler {
      try await wait(for: running, archive: archive)
    } onCancel: {
      archive.endOpenExchanges()
    }
    archive.endOpenExchanges()
  }

  /// Returns when the task is cancelled (or `server` fails); throws when the archive cannot be written.
  private func wait(for running: MockServer?, archive: RecordingArchive) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        if let server = running {
          try await server.runUntilCancelled()
        } else {
          while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        }
      }
      // A recording that cannot be written ends the command with its error.
      group.addTask { for await failure in archive.failures { throw failure } }
      try await group.next()
      group.cancelAll()
    }
  }

  /// The one server `start` starts, once it listens, its address line printed on stdout.
  func listening(
    in context: Context, more: [(api: String, url: String)] = [], _ start: () async throws -> MockServer
  ) async throws -> MockServer {
    let server: MockServer
    do {
      server = try await start()
    } catch {
      throw APXError(
        .network, "apx mock could not listen on \(host):\(port)",
        hint: "is another process using the port? Try --port 0 for a free port", underlying: error)
    }
    let info = JSONValue.object((server.addresses + more).map { JSONMember($0.api, .string($0.url)) })
    context.stdout.write(JSONPrinter(style: .compact).bytes(info) + [0x0A])
    context.stdout.flush()
    return server
  }

  /// `--replay` of gRPC calls recorded with their descriptors: a server on `--grpc-port`
  /// answering them, listening, and its address; nil when the archives hold none.
  func grpcReplay(_ replay: HARReplay, descriptorSets: [[UInt8]], context: Context) async throws
    -> (server: GRPCRelayServer, url: String)?
  {
    let recordedGRPC = replay.exchanges.contains { $0.grpcMessages != nil }
    guard let answers = try GRPCReplayAnswers(replay, descriptorSets: descriptorSets, report: { context.warn($0) })
    else {
      if recordedGRPC {
        context.warn(
          "apx mock: note: the gRPC calls of these archives carry no descriptors (apx mock --record writes them): "
            + "they are not answered")
      }
      return nil
    }
    return try await listeningGRPC {
      try await GRPCRelayServer.start(
        methods: answers.methods, descriptorSet: answers.descriptorSet, host: host, port: grpcPort,
        forward: answers.answer)
    }
  }

  /// The gRPC server `start` starts on `--grpc-port`, and its address.
  private func listeningGRPC(_ start: () async throws -> GRPCRelayServer) async throws
    -> (server: GRPCRelayServer, url: String)
  {
    let server: GRPCRelayServer
    do {
      server = try await start()
    } catch let error as APXError {
      throw error
    } catch {
      throw APXError(
        .network, "apx mock could not listen on \(host):\(grpcPort)",
        hint: "is another process using the port? Try --grpc-port 0 for a free port", underlying: error)
    }
    return (server, Origin(scheme: "grpc", host: host, port: server.port).description)
  }

  /// The archives `--replay` names: files as given, and every `*.har` of a folder, in name order.
  static func archives(_ paths: [String]) throws -> [String] {
    var files: [String] = []
    for path in paths {
      guard FileKind.isDirectory(path) == true else {
        files.append(path)
        continue
      }
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: path)
      } catch {
        throw APXError(.usage, "--replay: cannot read the folder \(path)", underlying: error)
      }
      let archives = names.filter { $0.lowercased().hasSuffix(".har") }.sorted()
      guard !archives.isEmpty else {
        throw APXError(
          .usage, "--replay: the folder \(path) holds no .har file",
          hint: "record one with apx mock --record \(path) --upstream URL, or apx call --har FILE")
      }
      files += archives.map { (path.hasSuffix("/") ? path : path + "/") + $0 }
    }
    return files
  }
}
