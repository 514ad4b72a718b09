import APXCore
import APXProtobuf

/// The gRPC state of one run (a command or a recipe): its settings and the
/// schemas already loaded, so that reflection is asked once per server and
/// protosets are read once. Scoped with `GRPCSession.with`, which makes it
/// `GRPCSession.current` for every call made inside; calls made outside any
/// session get default settings and a schema cache of their own.
public final class GRPCSession: Sendable {
  /// Settings for every call of the run.
  public let settings: GRPCSettings
  let schemas = SchemaCache()

  /// The session in force for the current task, if any.
  @TaskLocal public static var current: GRPCSession?

  /// Makes a session (prefer `with(_:_:)`, which scopes it).
  public init(settings: GRPCSettings = GRPCSettings()) {
    self.settings = settings
  }

  /// Runs `body` with a new session as `GRPCSession.current`.
  public static func with<T: Sendable>(
    _ settings: GRPCSettings, _ body: () async throws -> T
  ) async throws -> T {
    try settings.validate()
    return try await $current.withValue(GRPCSession(settings: settings)) { try await body() }
  }
}

/// Descriptor pools already built during a run, by schema source.
actor SchemaCache {
  private var pools: [String: DescriptorPool] = [:]

  /// The cached pool for `key`, if any.
  func pool(for key: String) -> DescriptorPool? { pools[key] }

  /// Remembers a pool.
  func store(_ pool: DescriptorPool, for key: String) { pools[key] = pool }
}
