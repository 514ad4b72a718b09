public import NIOCore

/// A piece of a response body as it came off the network, without a copy.
///
/// `-o raw` used to copy every ByteBuffer into an `[UInt8]` before writing it:
/// one extra pass over each byte and an allocation per chunk (1 GiB ran at
/// 0.64x curl). Consumers that only forward the bytes use `withUnsafeBytes`;
/// those that keep them use it as a collection of bytes.
public struct BodyChunk: Sendable, RandomAccessCollection {
  let buffer: ByteBuffer

  /// Wraps the readable bytes of `buffer` (shared, not copied).
  public init(_ buffer: ByteBuffer) { self.buffer = buffer }

  /// A chunk holding a copy of `bytes` (tests and non-network producers).
  public init(_ bytes: some Collection<UInt8>) { self.buffer = ByteBuffer(bytes: bytes) }

  public var startIndex: Int { 0 }
  public var endIndex: Int { buffer.readableBytes }
  public subscript(position: Int) -> UInt8 {
    buffer.readableBytesView[buffer.readableBytesView.startIndex + position]
  }

  /// Calls `body` with the bytes in place.
  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try buffer.withUnsafeReadableBytes(body)
  }

  /// Lets `Array(chunk)`, `append(contentsOf:)` and `+=` copy in one block, not byte by byte.
  public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
    try buffer.withUnsafeReadableBytes { raw in try body(raw.bindMemory(to: UInt8.self)) }
  }
}
