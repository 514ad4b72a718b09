public import APXCore

/// JSON <-> protobuf wire conversion for the pool's message types, following
/// the proto3 JSON mapping (https://protobuf.dev/programming-guides/json/),
/// well-known types included. `Any` type URLs are resolved through this pool.
extension DescriptorPool {
  /// Encodes `json` (a JSON object for a message, or a well-known type's JSON form)
  /// as protobuf wire bytes of `type`. Bad input throws an `.invalidJSON` error whose
  /// message starts with the JSON path, e.g. `.lesson.labels[0]: expected a string value, got 3`.
  public func encode(_ json: JSONValue, as type: MessageDescriptor, options: EncodeOptions = EncodeOptions())
    throws(ProtobufError) -> [UInt8]
  {
    var buffer: [UInt8] = []
    try encode(json, as: type, into: &buffer, options: options)
    return buffer
  }

  /// Appends the encoding of `json` to `buffer` (reuse one buffer across calls
  /// to avoid reallocating). On error the buffer is left as it was.
  public func encode(
    _ json: JSONValue, as type: MessageDescriptor, into buffer: inout [UInt8], options: EncodeOptions = EncodeOptions()
  ) throws(ProtobufError) {
    let encoder = JSONToWire(storage: type.storage, anyTypes: storage, options: options)
    var writer = WireWriter(capacity: 0)
    swap(&writer.bytes, &buffer)
    let start = writer.bytes.count
    do throws(CodecError) {
      try encoder.encodeMessage(json, type.node, into: &writer, depth: 0)
      swap(&writer.bytes, &buffer)
    } catch {
      writer.bytes.removeSubrange(start...)
      swap(&writer.bytes, &buffer)
      var e = error.protobufError()
      e.message = "cannot encode \(type.fullName) from JSON: " + e.message
      throw e
    }
  }

  /// Decodes protobuf wire bytes of `type` into JSON. Malformed bytes throw a
  /// `.malformedMessage` error naming the field path and byte offset; never traps.
  public func decode(
    _ bytes: some Collection<UInt8>, as type: MessageDescriptor, options: DecodeOptions = DecodeOptions()
  ) throws(ProtobufError) -> JSONValue {
    let result: Result<JSONValue, CodecError>? = bytes.withContiguousStorageIfAvailable { buffer in
      decodeContiguous(buffer, type, options)
    }
    let outcome = result ?? Array(bytes).withUnsafeBufferPointer { decodeContiguous($0, type, options) }
    switch outcome {
    case .success(let json): return json
    case .failure(let error):
      var e = error.protobufError()
      e.message = "cannot decode \(type.fullName) from protobuf bytes: " + e.message
      throw e
    }
  }

  private func decodeContiguous(
    _ buffer: UnsafeBufferPointer<UInt8>, _ type: MessageDescriptor, _ options: DecodeOptions
  ) -> Result<JSONValue, CodecError> {
    let decoder = WireToJSON(storage: type.storage, anyTypes: storage, options: options, base: buffer)
    do throws(CodecError) {
      return .success(try decoder.decodeMessage([0..<buffer.count], type.node, depth: 0))
    } catch {
      return .failure(error)
    }
  }
}
