import APXCore
import NIOCore
import NIOPosix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Resolves a gRPC target's host name once before its client is made.
///
/// Why: when a name does not resolve, grpc-swift fails the RPCs waiting at that moment, then
/// retries resolution with backoff, and an RPC started during that backoff (apx's second or
/// third attempt) waits for the channel with no deadline: `apx call grpc://typo.example:50051/...`
/// hung forever. Asking first gives the same error, exit code and hint as a REST call.
enum GRPCHostCheck {
  /// What the resolver said of a name.
  enum Answer: Sendable {
    /// It resolved.
    case resolved
    /// It did not: the resolver's words, and whether the name does not exist (as opposed to a
    /// resolver that failed).
    case failed(text: String, notFound: Bool)
  }
  /// Looks a host name and port up. Blocks its thread.
  typealias Lookup = @Sendable (_ host: String, _ port: Int) -> Answer

  /// Checks that `target`'s host resolves (an IP address needs no lookup). Throws a network error when the name does not resolve, and a timeout error when
  /// the resolver has not answered within `timeout` seconds.
  ///
  /// - Parameters:
  ///   - timeout: the call's `--timeout`; nil waits as long as the system resolver does
  ///     (its own attempts and timeouts, from resolv.conf).
  ///   - loop: the event loop that keeps the time (the run's, or NIO's shared group's).
  ///   - lookup: the resolver; the system's `getaddrinfo` unless a test gives another.
  static func resolve(
    _ target: GRPCTarget, timeout: Double? = nil, on loop: (any EventLoop)? = nil,
    lookup: @escaping Lookup = systemLookup
  ) async throws {
    let host = target.host
    if HostText.isIPAddress(host) { return }
    let port = target.port
    let loop = loop ?? MultiThreadedEventLoopGroup.singleton.next()
    // getaddrinfo blocks: on NIO's thread pool, never on a thread of Swift's cooperative pool
    // or the loop. It cannot be interrupted, so past the deadline it is left to finish alone.
    let lookedUp = NIOThreadPool.singleton.runIfActive(eventLoop: loop) { lookup(host, port) }
    let answer: EventLoopFuture<Answer>
    if let timeout, timeout.isFinite, timeout < Double(Int64.max / 1_000_000_000) {
      let promise = loop.makePromise(of: Answer.self)
      // A promise ignores every completion after its first: whichever comes first decides.
      let timer = loop.scheduleTask(in: .nanoseconds(Int64(max(timeout, 0) * 1e9))) {
        promise.fail(
          APXError(
            .timeout, "the name \(host) did not resolve within \(NetworkErrorMapper.format(timeout))s",
            hint: "check the network's DNS servers (/etc/resolv.conf), or raise the limit with --timeout SECONDS"))
      }
      lookedUp.whenComplete { result in
        timer.cancel()
        promise.completeWith(result)
      }
      answer = promise.futureResult
    } else {
      answer = lookedUp
    }
    switch try await answer.get() {
    case .resolved:
      return
    case .failed(let text, let notFound):
      let error = NetworkErrorMapper.unresolvedHost(host, cause: "\(text) for host \(host), port \(port)")
      // Said as the retry layer says it for REST and SSE (a check before any attempt is never retried).
      throw notFound ? Executor.gaveUp(error, reason: .hostNotFound, attempts: 1, safety: .safe) : error
    }
  }

  /// The system resolver (`getaddrinfo`) for TCP.
  static let systemLookup: Lookup = { host, port in
    var hints = addrinfo()
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)  // an enum on Glibc
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var result: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &result)
    defer { if let result { freeaddrinfo(result) } }
    guard status == 0 else {
      return .failed(text: String(cString: gai_strerror(status)), notFound: status == EAI_NONAME)
    }
    return .resolved
  }
}
