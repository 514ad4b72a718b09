/// The HTTP/2 frames (RFC 9113 §4 and §6) that `H2Connection` reads and writes.
struct H2Frame {
  enum Kind: UInt8 {
    case data = 0
    case headers = 1
    case priority = 2
    case resetStream = 3
    case settings = 4
    case pushPromise = 5
    case ping = 6
    case goAway = 7
    case windowUpdate = 8
    case continuation = 9
  }

  /// END_STREAM on DATA and HEADERS; ACK on SETTINGS and PING.
  static let endStream: UInt8 = 0x1
  static let ack: UInt8 = 0x1
  static let endHeaders: UInt8 = 0x4
  static let padded: UInt8 = 0x8
  static let priority: UInt8 = 0x20
  /// The length of a frame's header.
  static let headerSize = 9

  /// The frame's type byte (unknown types are read and ignored, as the RFC asks).
  let type: UInt8
  let flags: UInt8
  let stream: UInt32
  let payload: ArraySlice<UInt8>

  var kind: Kind? { Kind(rawValue: type) }

  func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

  /// A frame as bytes: its 9-byte header, then `payload`.
  static func bytes(_ kind: Kind, flags: UInt8 = 0, stream: UInt32, payload: some Collection<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(headerSize + payload.count)
    let length = UInt32(payload.count)
    out += [
      UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8),
      UInt8(truncatingIfNeeded: length),
    ]
    out += [kind.rawValue, flags]
    out += bigEndian(stream & 0x7fff_ffff)
    out += payload
    return out
  }

  /// `value` as four bytes, most significant first.
  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [
      UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
      UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
    ]
  }

  /// The four bytes at `offset` of `bytes`, most significant first.
  static func uint32(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
    let i = bytes.startIndex + offset
    return UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
  }

  /// The payload without its padding (and, for HEADERS, without the priority fields), or nil
  /// when the padding is longer than the frame.
  func content() -> ArraySlice<UInt8>? {
    var body = payload
    var padding = 0
    if has(Self.padded) {
      guard let first = body.first else { return nil }
      padding = Int(first)
      body = body.dropFirst()
    }
    if kind == .headers, has(Self.priority) {
      guard body.count >= 5 else { return nil }
      body = body.dropFirst(5)
    }
    guard padding <= body.count else { return nil }
    return body.dropLast(padding)
  }
}
