import APXCore
import Synchronization
import Testing

@testable import APXRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The host-name check before a gRPC connection is bounded by the call's timeout: a resolver
/// that never answers (a dead DNS server) must not hold the call past it.
@Suite("gRPC host check: bounded by the call's timeout", .timeLimit(.minutes(5)))
struct GRPCHostCheckTests {
  private let target = GRPCTarget(host: "api.example.test", port: 50051, useTLS: false)

  /// A resolver that blocks its thread until released (at most 30 s), then says the name resolves.
  private final class StuckResolver: Sendable {
    private let released = Atomic<Bool>(false)
    let asked = Atomic<Int>(0)

    var lookup: GRPCHostCheck.Lookup {
      { _, _ in
        self.asked.add(1, ordering: .relaxed)
        var waited = 0
        while !self.released.load(ordering: .acquiring), waited < 3000 {
          usleep(10_000)
          waited += 1
        }
        return .resolved
      }
    }

    func release() { released.store(true, ordering: .releasing) }
  }

  @Test func aResolverThatDoesNotAnswerFailsTheCallAtItsTimeout() async throws {
    let resolver = StuckResolver()
    defer { resolver.release() }
    let error = await #expect(throws: APXError.self) {
      try await GRPCHostCheck.resolve(target, timeout: 0.2, lookup: resolver.lookup)
    }
    #expect(error?.status == .timeout)
    #expect(error?.message == "the name api.example.test did not resolve within 0.2s")
    #expect(error?.hint?.contains("--timeout") == true)
    #expect(resolver.asked.load(ordering: .relaxed) == 1)
  }

  @Test func anAnswerWithinTheTimeoutDecides() async throws {
    // Not found: the same error as without a timeout (a network failure, never retried).
    let error = await #expect(throws: APXError.self) {
      try await GRPCHostCheck.resolve(target, timeout: 5) { _, _ in
        .failed(text: "Name or service not known", notFound: true)
      }
    }
    #expect(error?.status == .network)
    #expect(error?.message.contains("api.example.test") == true)
    // Resolved: the check passes.
    try await GRPCHostCheck.resolve(target, timeout: 5) { _, _ in .resolved }
  }

  @Test func withoutATimeoutTheResolverIsWaitedFor() async throws {
    let resolver = StuckResolver()
    let check = Task { try await GRPCHostCheck.resolve(target, timeout: nil, lookup: resolver.lookup) }
    while resolver.asked.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(5)) }
    resolver.release()
    _ = try await check.value
  }

  @Test func addressesAreNotLookedUp() async throws {
    for address in ["grpc://127.0.0.1:50051", "grpc://[::1]:50051"] {
      try await GRPCHostCheck.resolve(try GRPCTarget(parsing: address), timeout: 0) { _, _ in
        Issue.record("\(address) was looked up")
        return .failed(text: "looked up", notFound: false)
      }
    }
  }
}
