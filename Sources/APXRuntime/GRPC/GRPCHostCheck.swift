import APXCore
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
  /// Throws a network error when `target`'s host (not an IP address) does not resolve.
  static func resolve(_ target: GRPCTarget) async throws {
    let host = target.host
    if GRPCTarget.isIPv4(host) || host.contains(":") { return }
    let port = target.port
    // getaddrinfo blocks: on NIO's thread pool, never on a thread of Swift's cooperative pool.
    let failure: (text: String, notFound: Bool)? = try await NIOThreadPool.singleton.runIfActive {
      var hints = addrinfo()
      #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)  // an enum on Glibc
      #else
        hints.ai_socktype = SOCK_STREAM
      #endif
      var result: UnsafeMutablePointer<addrinfo>?
      let status = getaddrinfo(host, String(port), &hints, &result)
      if let result { freeaddrinfo(result) }
      return status == 0 ? nil : (String(cString: gai_strerror(status)), status == EAI_NONAME)
    }
    if let failure {
      let error = NetworkErrorMapper.unresolvedHost(host, cause: "\(failure.text) for host \(host), port \(port)")
      // Said as the retry layer says it for REST and SSE (a check before any attempt is never retried).
      throw failure.notFound ? Executor.gaveUp(error, reason: .hostNotFound, attempts: 1, safety: .safe) : error
    }
  }
}
