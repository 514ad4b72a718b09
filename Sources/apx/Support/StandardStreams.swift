import APXCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A buffered writer on a file descriptor (stdout or stderr). Writes go
/// straight to the descriptor in large blocks: no Foundation, no locks beyond
/// the one serialising callers, since calls and progress can run on different tasks.
/// A capturing stream (`capturing()`) keeps what is flushed instead, for tests of what
/// a command writes.
final class OutputStream: @unchecked Sendable {
  /// The descriptor written to; -1 for a capturing stream.
  let fd: Int32
  private var buffer: [UInt8] = []
  /// What a capturing stream was given, flushed bytes only; nil for a descriptor's stream.
  private var kept: [UInt8]?
  private let lock = Lock()
  /// Set once a write failed (e.g. the reader of a pipe went away).
  private(set) var closed = false
  /// The errno of the failed write: EPIPE when the reader went away (`| head`).
  private(set) var failure: Int32 = 0
  let capacity = 256 * 1024

  init(fd: Int32) {
    self.fd = fd
    buffer.reserveCapacity(capacity)
  }

  /// A capturing stream that says it is a terminal, for tests of what only a terminal gets
  /// (progress bars, tables fitted to its width).
  private var claimsTerminal = false

  /// A stream that keeps what is written (`captured`) instead of writing to a descriptor;
  /// `asTerminal` makes it answer `isTerminal` with true.
  static func capturing(asTerminal: Bool = false) -> OutputStream {
    let stream = OutputStream(fd: -1)
    stream.kept = []
    stream.claimsTerminal = asTerminal
    return stream
  }

  /// What a capturing stream was given so far, as text (what is still buffered included).
  var captured: String {
    lock.withLock {
      flushLocked()
      return String(decoding: kept ?? [], as: UTF8.self)
    }
  }

  /// Whether this descriptor is a terminal (for a capturing stream, what it was made to claim).
  var isTerminal: Bool { claimsTerminal || (fd >= 0 && isatty(fd) == 1) }

  func write(_ bytes: some Collection<UInt8>) {
    lock.withLock {
      buffer.append(contentsOf: bytes)
      if buffer.count >= capacity { flushLocked() }
    }
  }

  func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { write(raw: $0) }
  }

  /// Writes bytes in place: a large block goes straight through (after what is
  /// buffered), saving a copy into the buffer on the `-o raw` hot path.
  func write(raw bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= capacity / 4 else {
      write(bytes.bindMemory(to: UInt8.self))
      return
    }
    lock.withLock {
      flushLocked()
      guard !closed else { return }
      writeAllLocked(bytes)
    }
  }

  func write(_ text: String) { write(text.utf8) }

  func flush() { lock.withLock { flushLocked() } }

  private func flushLocked() {
    guard !buffer.isEmpty else { return }
    if closed {
      buffer.removeAll(keepingCapacity: true)
      return
    }
    buffer.withUnsafeBytes { writeAllLocked($0) }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes every byte (retrying short writes and EINTR); marks the stream closed on failure.
  private func writeAllLocked(_ bytes: UnsafeRawBufferPointer) {
    if kept != nil {
      kept?.append(contentsOf: bytes)
      return
    }
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let n = systemWrite(fd, base + offset, bytes.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        failure = errno
        closed = true
        return
      }
      offset += n
    }
  }
}

/// The C library's `write`: outside the type, whose own `write` methods would hide it.
@inline(__always)
private func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
  write(fd, p, n)
}

/// A minimal mutex over pthread (portable to macOS and Linux).
final class Lock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  init() { pthread_mutex_init(mutex, nil) }
  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }
  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
