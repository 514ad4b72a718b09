import APXCore

/// The few messages of grpc.reflection (v1 and v1alpha share the wire
/// format) that apx uses, written and read by hand: five request fields and
/// four response fields do not justify embedding reflection.proto's
/// descriptor, and a hand-written reader keeps reflection off the codec's
/// JSON path (one round trip matters for the latency of the first call).
enum ReflectionWire {
  /// What a `ServerReflectionRequest` asks for.
  enum Request: Sendable, Hashable {
    case listServices
    case fileContainingSymbol(String)
    case fileByFilename(String)
  }

  /// The part of a `ServerReflectionResponse` apx reads.
  enum Response: Sendable {
    /// Serialized `FileDescriptorProto`s.
    case files([[UInt8]])
    /// Fully qualified service names.
    case services([String])
    /// The server's `ErrorResponse`.
    case error(code: Int, message: String)
    /// A response kind apx did not ask for.
    case other
  }

  /// Encodes a `ServerReflectionRequest`.
  static func encode(_ request: Request) -> [UInt8] {
    var out: [UInt8] = []
    switch request {
    case .fileByFilename(let name): appendString(3, name, to: &out)
    case .fileContainingSymbol(let symbol): appendString(4, symbol, to: &out)
    case .listServices: appendString(7, "", to: &out)
    }
    return out
  }

  /// Decodes a `ServerReflectionResponse`; malformed bytes are a remote failure.
  static func decode(_ bytes: [UInt8]) throws(APXError) -> Response {
    var result = Response.other
    var reader = Reader(bytes: bytes[...])
    while let (field, value) = try reader.next() {
      guard case .bytes(let body) = value else { continue }
      switch field {
      case 4:
        var files: [[UInt8]] = []
        var inner = Reader(bytes: body)
        while let (f, v) = try inner.next() {
          if f == 1, case .bytes(let file) = v { files.append(Array(file)) }
        }
        result = .files(files)
      case 6:
        var names: [String] = []
        var inner = Reader(bytes: body)
        while let (f, v) = try inner.next() {
          guard f == 1, case .bytes(let service) = v else { continue }
          var serviceReader = Reader(bytes: service)
          while let (sf, sv) = try serviceReader.next() {
            if sf == 1, case .bytes(let name) = sv { names.append(String(decoding: name, as: UTF8.self)) }
          }
        }
        result = .services(names)
      case 7:
        var code = 0
        var message = ""
        var inner = Reader(bytes: body)
        while let (f, v) = try inner.next() {
          if f == 1, case .varint(let c) = v { code = Int(Int32(truncatingIfNeeded: c)) }
          if f == 2, case .bytes(let m) = v { message = String(decoding: m, as: UTF8.self) }
        }
        result = .error(code: code, message: message)
      default:
        continue
      }
    }
    return result
  }

  private static func appendString(_ field: UInt64, _ text: String, to out: inout [UInt8]) {
    appendVarint(field << 3 | 2, to: &out)
    let utf8 = Array(text.utf8)
    appendVarint(UInt64(utf8.count), to: &out)
    out += utf8
  }

  private static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
    var v = value
    while v >= 0x80 {
      out.append(UInt8(v & 0x7F) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
  }

  /// One field value as the wire carries it.
  enum Value {
    case varint(UInt64)
    case bytes(ArraySlice<UInt8>)
    case fixed
  }

  /// Reads top-level fields of one message, skipping what it does not know.
  struct Reader {
    var bytes: ArraySlice<UInt8>

    mutating func next() throws(APXError) -> (Int, Value)? {
      guard !bytes.isEmpty else { return nil }
      let key = try varint()
      let field = Int(key >> 3)
      switch key & 7 {
      case 0: return (field, .varint(try varint()))
      case 1: try skip(8)
      case 5: try skip(4)
      case 2:
        let length = try varint()
        guard length <= UInt64(bytes.count) else { throw malformed("a field runs past the end of the message") }
        let body = bytes.prefix(Int(length))
        bytes = bytes.dropFirst(Int(length))
        return (field, .bytes(body))
      default:
        throw malformed("unsupported wire type \(key & 7)")
      }
      return (field, .fixed)
    }

    private mutating func skip(_ n: Int) throws(APXError) {
      guard bytes.count >= n else { throw malformed("a fixed-size field runs past the end of the message") }
      bytes = bytes.dropFirst(n)
    }

    private mutating func varint() throws(APXError) -> UInt64 {
      var result: UInt64 = 0
      var shift: UInt64 = 0
      while let byte = bytes.first {
        bytes = bytes.dropFirst()
        guard shift < 64 else { break }
        result |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return result }
        shift += 7
      }
      throw malformed("a varint is truncated or too long")
    }

    private func malformed(_ why: String) -> APXError {
      APXError(
        .remoteFailure, "the server's reflection answer cannot be used",
        hint: ReflectionClient.unusableAnswerHint, cause: "it is not a valid ServerReflectionResponse: \(why)")
    }
  }
}
