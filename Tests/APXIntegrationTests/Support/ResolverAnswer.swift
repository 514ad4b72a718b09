#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What this machine's resolver answers for a name that cannot exist.
enum ResolverAnswer {
  /// Whether `nonexistent.invalid` gets the definite "no such name" (EAI_NONAME), as RFC 6761
  /// asks of resolvers. Without a reachable DNS server the answer is a temporary failure instead.
  static let invalidNameIsNotFound: Bool = {
    var result: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo("nonexistent.invalid", "80", nil, &result)
    if let result { freeaddrinfo(result) }
    return status == EAI_NONAME
  }()
}
