import APXCore
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
      let stray = [("--upstream", upstream != nil), ("--insecure", insecure), ("--cacert", cacert != nil)]
        .filter(\.1).map(\.0)
      if !stray.isEmpty { throw ValidationError("\(stray.joined(separator: ", ")) go with --record DIR") }
      if fullSpeed, replay.isEmpty { throw ValidationError("--full-speed goes with --replay") }
      return
    }
    guard !record.isEmpty else { throw ValidationError("--record needs a folder") }
    guard let upstream else {
      throw ValidationError("--record needs --upstream URL: the server whose exchanges it records")
    }
    let lower = upstream.lowercased()
    guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
      throw ValidationError(
        "--upstream must be an http:// or https:// URL, got \(upstream) (gRPC is not recorded yet)")
    }
    guard !upstream.contains("?"), !upstream.contains("#") else {
      throw ValidationError("--upstream is an origin and base path, without a query or fragment: \(upstream)")
    }
    if (insecure || cacert != nil), !lower.hasPrefix("https://") {
      throw ValidationError("--insecure and --cacert apply only to an https:// upstream")
    }
    let refused = [
      ("API names", !apis.isEmpty), ("--registry", !registryOptions.registry.isEmpty), ("--openapi", openapi != nil),
      ("--replay", !replay.isEmpty), ("--full-speed", fullSpeed), ("--latency", latency != nil),
      ("--fail-rate", failRate != 0), ("--fail-status", failStatus != 503), ("--drop-every", dropEvery != 0),
      ("--sse-events", sseEvents != 10), ("--stateful", stateful), ("--seed", seed != 0),
      ("--grpc-port", grpcPort != 4770),
    ].filter(\.1).map(\.0)
    if !refused.isEmpty {
      throw ValidationError(
        "\(refused.joined(separator: ", ")) cannot be used with --record: it forwards to the upstream as it is")
    }
  }

  /// `--record DIR --upstream URL`: a proxy that forwards every request and records the exchanges.
  func runRecord(in context: Context) async throws {
    guard let record, let upstream else { return }
    let archive = try RecordingArchive(directory: record, creatorVersion: APXVersion.current)
    if insecure { context.warn("apx: warning: --insecure: TLS certificates are not verified") }
    let session = HTTPSessionOptions(
      insecure: insecure, caCertificatePath: cacert, trust: TrustStore.from(environment: context.environment))
    try await HTTPSession.with(session) { session in
      let proxy = RecordingProxy(upstream: upstream, session: session, archive: archive) { context.warn($0) }
      let server = try await listening(in: context) {
        try await MockServer.startProxy(
          name: "record", options: MockOptions(host: host, port: port), forward: proxy.forward)
      }
      for (_, url) in server.addresses {
        context.warn("apx mock: recording \(proxy.upstream) into \(archive.path), on \(url)")
      }
      context.warn("apx mock: Ctrl-C stops it")
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.runUntilCancelled() }
        // A recording that cannot be written ends the command with its error.
        group.addTask { for await failure in archive.failures { throw failure } }
        try await group.next()
        group.cancelAll()
      }
    }
  }

  /// The one server `start` starts, once it listens, its address line printed on stdout.
  func listening(in context: Context, _ start: () async throws -> MockServer) async throws -> MockServer {
    let server: MockServer
    do {
      server = try await start()
    } catch {
      throw APXError(
        .network, "apx mock could not listen on \(host):\(port)",
        hint: "is another process using the port? Try --port 0 for a free port", underlying: error)
    }
    let info = JSONValue.object(server.addresses.map { JSONMember($0.api, .string($0.url)) })
    context.stdout.write(JSONPrinter(style: .compact).bytes(info) + [0x0A])
    context.stdout.flush()
    return server
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
