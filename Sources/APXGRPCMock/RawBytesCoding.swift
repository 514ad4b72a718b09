import GRPCCore

/// Messages as their wire bytes: the mock decodes and encodes them itself, by descriptor.
struct RawBytesCoding: MessageSerializer, MessageDeserializer {
  func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }

  func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
    serializedMessageBytes.withUnsafeBytes { Array($0) }
  }
}
