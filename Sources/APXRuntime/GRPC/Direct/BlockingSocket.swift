import NIOCore

#if canImport(Glibc)
  import Glibc
  private let systemConnect = Glibc.connect
  private let systemClose = Glibc.close
  private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Musl)
  import Musl
  private let systemConnect = Musl.connect
  private let systemClose = Musl.close
  private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
  import Darwin
  private let systemConnect = Darwin.connect
  private let systemClose = Darwin.close
  private let noSignal: Int32 = 0  // apx ignores SIGPIPE (Main)
#endif

/// Why a socket operation failed: the system's words (`strerror`), which the gRPC error
/// mapping reads ("Connection refused"), or a deadline that passed.
struct SocketFailure: Error, CustomStringConvertible {
  enum Kind: Sendable { case connect, io, timedOut, closed }
  let kind: Kind
  let description: String

  static func system(_ kind: Kind, _ what: String, errno code: Int32) -> SocketFailure {
    SocketFailure(kind: kind, description: "\(what): \(String(cString: strerror(code)))")
  }
}

/// A TCP connection with blocking semantics and a deadline on every operation: a
/// non-blocking socket waited on with `poll`. Used by `DirectGRPC` on a thread of its own
/// (`BlockingThread`), never on an event loop.
final class BlockingSocket {
  private var descriptor: Int32

  private init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit { close() }

  /// Connects to `host:port` (a name is resolved with `getaddrinfo`; each address is tried in
  /// turn) before `deadline`. Only for IP addresses or when nothing resolved the name before:
  /// the lookup itself cannot be bounded.
  static func connect(host: String, port: Int, deadline: NIODeadline) throws(SocketFailure) -> BlockingSocket {
    var hints = addrinfo()
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let list else {
      throw SocketFailure(
        kind: .connect, description: "could not resolve \(host): \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(list) }
    return try connect(to: ResolvedAddress.all(in: list), host: host, deadline: deadline)
  }

  /// Connects to the first of `addresses` (of `host`) that accepts before `deadline`.
  static func connect(
    to addresses: [ResolvedAddress], host: String, deadline: NIODeadline
  ) throws(SocketFailure) -> BlockingSocket {
    var failure = SocketFailure(kind: .connect, description: "no address for \(host)")
    for address in addresses {
      do {
        return try connect(to: address, deadline: deadline)
      } catch {
        failure = error
        if error.kind == .timedOut { break }
      }
    }
    throw failure
  }

  private static func connect(to address: ResolvedAddress, deadline: NIODeadline) throws(SocketFailure)
    -> BlockingSocket
  {
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
    #else
      let type = SOCK_STREAM
    #endif
    let fd = socket(address.family, type, 0)
    guard fd >= 0 else { throw .system(.connect, "could not open a socket", errno: errno) }
    let socket = BlockingSocket(descriptor: fd)
    #if !canImport(Glibc)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    #endif
    var on: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    if address.withSockaddr({ systemConnect(fd, $0, $1) }) != 0 {
      guard errno == EINPROGRESS else { throw .system(.connect, "could not connect", errno: errno) }
      try socket.wait(for: Int16(POLLOUT), until: deadline)
      var problem: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &problem, &length)
      guard problem == 0 else { throw .system(.connect, "could not connect", errno: problem) }
    }
    return socket
  }

  /// Writes all of `bytes`.
  func write(_ bytes: [UInt8], deadline: NIODeadline) throws(SocketFailure) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in
        send(descriptor, raw.baseAddress! + offset, raw.count - offset, noSignal)
      }
      if written > 0 {
        offset += written
      } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
        try wait(for: Int16(POLLOUT), until: deadline)
      } else {
        throw .system(.io, "could not write to the connection", errno: errno)
      }
    }
  }

  /// Reads what has arrived (at most `limit` bytes), waiting until something has; an empty
  /// answer means the peer closed the connection.
  func read(limit: Int, deadline: NIODeadline) throws(SocketFailure) -> [UInt8] {
    while true {
      // Received into uninitialised capacity: zero-filling `limit` (64 KiB) for every read, most
      // of which bring a few hundred bytes, was 4% of a gRPC call's CPU in memset and the page
      // faults of touching each page (`perf`, session 14).
      var count = 0
      let buffer = [UInt8](unsafeUninitializedCapacity: limit) { storage, initialized in
        count = recv(descriptor, storage.baseAddress!, limit, 0)
        initialized = max(count, 0)
      }
      if count >= 0 { return buffer }
      guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
        // A server that closes with apx's request unread resets the connection.
        if errno == ECONNRESET {
          throw SocketFailure(kind: .io, description: "the server closed the connection (reset)")
        }
        throw .system(.io, "could not read from the connection", errno: errno)
      }
      try wait(for: Int16(POLLIN), until: deadline)
    }
  }

  /// Closes the socket (again: nothing).
  func close() {
    guard descriptor >= 0 else { return }
    _ = systemClose(descriptor)
    descriptor = -1
  }

  /// Waits until the socket is ready for `events`, or throws once `deadline` has passed.
  /// Whether a read would not wait: bytes have arrived, or the peer closed or reset.
  var hasInput: Bool {
    guard descriptor >= 0 else { return false }
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) > 0
  }

  private func wait(for events: Int16, until deadline: NIODeadline) throws(SocketFailure) {
    guard descriptor >= 0 else { throw SocketFailure(kind: .closed, description: "the connection is closed") }
    while true {
      var timeout: Int32 = -1
      if deadline != .distantFuture {
        let left = deadline.uptimeNanoseconds.subtractingReportingOverflow(NIODeadline.now().uptimeNanoseconds)
        guard !left.overflow, left.partialValue > 0 else {
          throw SocketFailure(kind: .timedOut, description: "the deadline passed")
        }
        timeout = Int32(clamping: (left.partialValue + 999_999) / 1_000_000)
      }
      var entry = pollfd(fd: descriptor, events: events, revents: 0)
      let ready = poll(&entry, 1, timeout)
      if ready > 0 { return }
      if ready < 0, errno != EINTR { throw .system(.io, "could not wait for the connection", errno: errno) }
    }
  }
}
