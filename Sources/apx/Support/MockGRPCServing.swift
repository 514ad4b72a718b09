import APXCore
import APXGRPCMock
import APXMock
import APXProtobuf
import APXRuntime
import GRPCCore
import Synchronization

/// `apx mock`'s gRPC half: the gRPC endpoints of the served APIs, answered from their schemas
/// (a protoset, .proto files, or the reflection of the API's environment server, read once at
/// start) by one gRPC server, with the APIs' auth checked in form and the flags' and the
/// `x-apx-mock-fault` metadata's faults.
enum MockGRPCServing {
  /// Starts the server when any of `apis` has gRPC endpoints; nil when none has.
  static func start(
    apis: [APIDefinition], host: String, port: Int, seed: UInt64, faults: MockFaults, server: MockServer,
    context: Context
  ) async throws -> GRPCMockServer? {
    let tokens = server.tokens
    // Which API's request log each call goes to: the API, and the endpoint, that declare it.
    var owners: [String: (api: String, endpoint: String?)] = [:]
    for api in apis {
      for endpoint in api.endpoints {
        guard let options = endpoint.grpc else { continue }
        owners["/\(options.service)/\(options.method)"] = (api.name, endpoint.name)
        if owners[options.service] == nil { owners[options.service] = (api.name, nil) }
      }
    }
    var protosets: [[UInt8]] = []
    var services: [String] = []
    var auth: [String: GRPCMockAuth] = [:]
    for api in apis {
      let endpoints = api.endpoints.filter { $0.grpc != nil }
      guard !endpoints.isEmpty else { continue }
      var bySource: [(SchemaSource, [String])] = []
      for endpoint in endpoints {
        guard let options = endpoint.grpc else { continue }
        if let i = bySource.firstIndex(where: { $0.0 == options.schema }) {
          if !bySource[i].1.contains(options.service) { bySource[i].1.append(options.service) }
        } else {
          bySource.append((options.schema, [options.service]))
        }
        if !services.contains(options.service) { services.append(options.service) }
        if let required = Self.auth(endpoint.auth ?? api.auth) { auth[options.service] = required }
      }
      // A service a local schema (protoset, .proto files) of the API describes is read from it,
      // not over reflection from the API's server, which a mock is there to stand in for.
      let local = Set(bySource.filter { $0.0 != .reflection }.flatMap(\.1))
      bySource = bySource.compactMap { source, names in
        guard source == .reflection else { return (source, names) }
        let rest = names.filter { !local.contains($0) }
        return rest.isEmpty ? nil : (source, rest)
      }
      for (source, names) in bySource {
        var address: String?
        if case .reflection = source {
          address = try BaseURLResolver.resolve(
            api: api, environment: nil, override: nil, demo: nil, processEnvironment: context.environment
          ).baseURL
          context.warn("apx mock: reading the schema of \(names.joined(separator: ", ")) from \(address ?? "")")
        }
        protosets.append(
          try await GRPCInspector.descriptorSet(
            schema: source, services: names, origin: .registryFile(api.sourceFile), address: address,
            settings: GRPCSettings(), environment: context.environment))
      }
    }
    guard !services.isEmpty else { return nil }
    let dice = FaultDice(seed: seed)
    let callOwners = owners
    let bearerServices = Set(auth.filter { $0.value.scheme == "Bearer" }.keys)
    return try await GRPCMockServer.start(
      protosets: protosets, services: services, host: host, port: port, examples: ProtoExample(seed: seed),
      auth: auth,
      fault: { metadata, method in
        if bearerServices.contains(method.service), let expired = Self.expiredToken(metadata, tokens: tokens) {
          return expired
        }
        return Self.fault(faults, metadata: metadata, dice: dice)
      },
      latency: { metadata, _ in Self.latency(faults, metadata: metadata, dice: dice) },
      observe: { call in
        var faultText: String?
        if call.latency > 0 {
          faultText = "latency \(call.latency) ms"
          context.warn("apx mock: fault: latency \(call.latency) ms: gRPC \(call.path)")
        }
        if let fault = call.fault {
          faultText = (faultText.map { $0 + ", " } ?? "") + (fault.label ?? "grpc-status \(fault.code)")
          if let label = fault.label {
            context.warn("apx mock: fault: \(label): gRPC \(call.path)")
          } else {
            context.warn(
              "apx mock: fault \(fault.code) on gRPC \(call.path)\(fault.afterHeaders ? " (after headers)" : "")")
          }
        }
        let service = String(call.path.dropFirst().prefix { $0 != "/" })
        guard let owner = callOwners[call.path] ?? callOwners[service] else { return }
        server.logGRPCCall(
          api: owner.api, path: call.path, metadata: call.metadata, endpoint: callOwners[call.path]?.endpoint,
          status: call.status?.rawValue ?? 0, statusName: call.status.map { "\($0)" } ?? "ok", fault: faultText)
      })
  }

  /// What a registry auth asks of a gRPC call's metadata; nil for auths gRPC cannot carry.
  static func auth(_ config: AuthConfig?) -> GRPCMockAuth? {
    switch config {
    case .bearer?, .oauth2ClientCredentials?, .oauth2Login?, .tokenCommand?:
      GRPCMockAuth(metadataName: "authorization", scheme: "Bearer")
    case .basic?: GRPCMockAuth(metadataName: "authorization", scheme: "Basic")
    case .apiKey(.header, let name, _)?: GRPCMockAuth(metadataName: name)
    default: nil
    }
  }

  /// UNAUTHENTICATED for a bearer token the mock issued whose lifetime has passed.
  static func expiredToken(_ metadata: Metadata, tokens: MockTokens) -> GRPCMockFault? {
    guard let value = metadata[stringValues: "authorization"].first(where: { _ in true }) else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer", tokens.hasExpired(String(parts[1])) else { return nil }
    return GRPCMockFault(
      code: .unauthenticated, message: "the access token expired; get a new one from the token endpoint",
      label: "token expired")
  }

  /// The fault a call gets: its metadata's `x-apx-mock-fault` on top of the flags; a failure
  /// status becomes the gRPC code gRPC maps it to, unless `grpc-status` names one.
  static func fault(_ flags: MockFaults, metadata: Metadata, dice: FaultDice) -> GRPCMockFault? {
    var faults = flags
    if let header = metadata[stringValues: "x-apx-mock-fault"].first(where: { _ in true }) {
      do {
        faults = try flags.applying(header: header)
      } catch {
        return GRPCMockFault(code: .invalidArgument, message: "x-apx-mock-fault: \(error.message)")
      }
    }
    let status =
      faults.failNow
      ?? (faults.failRate > 0 && dice.draw() < faults.failRate
        ? faults.failStatus : nil)
    guard status != nil || faults.grpcStatus != nil else { return nil }
    let code =
      faults.grpcStatus.flatMap { Status.Code(rawValue: $0) }.flatMap { RPCError.Code($0) }
      ?? Self.code(forHTTPStatus: status ?? 500)
    return GRPCMockFault(code: code, afterHeaders: faults.afterHeaders)
  }

  /// The milliseconds a call waits: `latency` of its metadata's `x-apx-mock-fault` on top of the flags'.
  static func latency(_ flags: MockFaults, metadata: Metadata, dice: FaultDice) -> Int {
    var faults = flags
    if let header = metadata[stringValues: "x-apx-mock-fault"].first(where: { _ in true }),
      let read = try? flags.applying(header: header)
    {
      faults = read
    }
    return faults.latency + (faults.jitter > 0 ? Int(dice.draw() * Double(faults.jitter + 1)) : 0)
  }

  /// gRPC's own mapping of HTTP statuses to status codes.
  static func code(forHTTPStatus status: Int) -> RPCError.Code {
    switch status {
    case 400: .internalError
    case 401: .unauthenticated
    case 403: .permissionDenied
    case 404: .unimplemented
    case 429, 502, 503, 504: .unavailable
    default: .unknown
    }
  }
}

/// The draws of `--fail-rate` for gRPC calls: seeded, shared by every call.
final class FaultDice: Sendable {
  private let random: Mutex<SeededRandom>

  init(seed: UInt64) {
    random = Mutex(SeededRandom(seed: seed, key: "grpc faults"))
  }

  /// A number from 0 up to 1.
  func draw() -> Double {
    random.withLock { Double($0.next() % 1_000_000) / 1_000_000 }
  }
}
