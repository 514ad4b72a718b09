#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One socket address the resolver gave for a gRPC target's host, kept so the direct client
/// connects to what `GRPCHostCheck` resolved instead of asking again: glibc keeps no answers,
/// so the second `getaddrinfo` cost every call a DNS round trip, and it blocked with no bound
/// (a DNS server that answered once and then stalled kept the call past its `--timeout`).
struct ResolvedAddress: Sendable, Equatable {
  /// `AF_INET` or `AF_INET6`.
  let family: Int32
  /// The `sockaddr` itself.
  let bytes: [UInt8]

  /// Every address in a `getaddrinfo` answer, in its order.
  static func all(in list: UnsafeMutablePointer<addrinfo>?) -> [ResolvedAddress] {
    var addresses: [ResolvedAddress] = []
    var entry = list
    while let address = entry {
      entry = address.pointee.ai_next
      // An entry without an address (none seen, but the list is the resolver's) is skipped:
      // `withSockaddr` needs bytes to point at.
      guard let raw = address.pointee.ai_addr, address.pointee.ai_addrlen > 0 else { continue }
      let bytes = UnsafeRawBufferPointer(start: raw, count: Int(address.pointee.ai_addrlen))
      addresses.append(ResolvedAddress(family: address.pointee.ai_family, bytes: Array(bytes)))
    }
    return addresses
  }

  /// `dotted:port` as an IPv4 address (tests give a made-up name this address); nil when
  /// `dotted` is not one.
  static func ipv4(_ dotted: String, port: Int) -> ResolvedAddress? {
    var address = sockaddr_in()
    guard inet_pton(AF_INET, dotted, &address.sin_addr) == 1, (0...65_535).contains(port) else { return nil }
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    let bytes = withUnsafeBytes(of: &address) { Array($0) }
    return ResolvedAddress(family: AF_INET, bytes: bytes)
  }

  /// Calls `body` with the address as the socket calls take it.
  func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    bytes.withUnsafeBytes { raw in
      body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
    }
  }
}
