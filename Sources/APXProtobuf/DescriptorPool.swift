import APXCore
public import SwiftProtobuf

/// All message, enum and service types of a set of .proto files, resolved and
/// ready for the JSON <-> wire codec. Built once from a protoset (a serialized
/// `FileDescriptorSet`, as `protoc --include_imports --descriptor_set_out`
/// writes) or from the `FileDescriptorProto`s a reflection server answers with.
///
/// Immutable and `Sendable`: share one pool between tasks.
public struct DescriptorPool: Sendable {
  let storage: PoolStorage

  /// Builds a pool from the bytes of a serialized `google.protobuf.FileDescriptorSet`.
  public init(protoset bytes: [UInt8]) throws(ProtobufError) {
    let files: [RawDescriptor.File]
    do {
      files = try RawDescriptor.files(ofSet: bytes)
    } catch {
      throw ProtobufError(
        .invalidSchema, "the protoset is not a valid serialized FileDescriptorSet",
        hint: "make it with `protoc --include_imports --descriptor_set_out=FILE.protoset FILE.proto`",
        underlying: error)
    }
    storage = try PoolBuilder.build(files: files)
  }

  /// Builds a pool from file descriptors in any order (imports are matched by file name).
  public init(files: [Google_Protobuf_FileDescriptorProto]) throws(ProtobufError) {
    var serialized: [[UInt8]] = []
    for file in files {
      do {
        serialized.append(try file.serializedBytes(partial: true))
      } catch {
        throw ProtobufError(
          .invalidSchema, "file descriptor '\(file.name)' cannot be serialized", underlying: error)
      }
    }
    try self.init(serializedFiles: serialized)
  }

  /// Builds a pool from serialized `FileDescriptorProto`s, as gRPC reflection returns them.
  public init(serializedFiles: [[UInt8]]) throws(ProtobufError) {
    var files: [RawDescriptor.File] = []
    files.reserveCapacity(serializedFiles.count)
    for (i, bytes) in serializedFiles.enumerated() {
      do {
        files.append(try RawDescriptor.file(bytes))
      } catch {
        throw ProtobufError(
          .invalidSchema,
          "file descriptor #\(i + 1) is not a valid serialized FileDescriptorProto", underlying: error)
      }
    }
    storage = try PoolBuilder.build(files: files)
  }

  /// The names of the loaded .proto files.
  public var fileNames: [String] { storage.fileNames }

  /// Fully qualified names of every service, sorted.
  public var services: [String] { storage.services.map(\.fullName).sorted() }

  /// Fully qualified names of every message type, sorted.
  public var messageNames: [String] { storage.messages.map(\.fullName).sorted() }

  /// The message type with this fully qualified name (a leading dot is allowed), or nil.
  public func message(_ fullName: String) -> MessageDescriptor? {
    let name = fullName.hasPrefix(".") ? String(fullName.dropFirst()) : fullName
    return storage.messageIndex[name].map { MessageDescriptor(storage: storage, index: $0) }
  }

  /// The message type with this name, or an `.unknownName` error with close matches.
  public func message(named fullName: String) throws(ProtobufError) -> MessageDescriptor {
    if let m = message(fullName) { return m }
    throw ProtobufError(
      .unknownName, "unknown message type '\(fullName)'",
      hint: NameSuggestions.hint(for: fullName, in: storage.messages.map(\.fullName), kind: "message type"))
  }

  /// The enum type with this fully qualified name (a leading dot is allowed), or nil.
  public func enumType(_ fullName: String) -> EnumDescriptor? {
    let name = fullName.hasPrefix(".") ? String(fullName.dropFirst()) : fullName
    return storage.enumIndex[name].map { EnumDescriptor(node: storage.enums[$0]) }
  }

  /// Method names of a service, in declaration order.
  public func methods(of service: String) throws(ProtobufError) -> [String] {
    try findService(service).methods.map(\.name)
  }

  /// Resolves `service` (fully qualified, or a unique short name) and `method`
  /// to their message types and streaming shape; unknown names get a
  /// "did you mean" hint listing the valid ones.
  public func method(service: String, method: String) throws(ProtobufError) -> MethodInfo {
    let s = try findService(service)
    guard let m = s.methods.first(where: { $0.name == method }) else {
      throw ProtobufError(
        .unknownName, "service '\(s.fullName)' has no method '\(method)'",
        hint: NameSuggestions.hint(for: method, in: s.methods.map(\.name), kind: "method"))
    }
    return MethodInfo(
      service: s.fullName, name: m.name, input: MessageDescriptor(storage: storage, index: m.inputIndex),
      output: MessageDescriptor(storage: storage, index: m.outputIndex), clientStreaming: m.clientStreaming,
      serverStreaming: m.serverStreaming, idempotent: m.idempotent)
  }

  private func findService(_ name: String) throws(ProtobufError) -> ServiceNode {
    let wanted = name.hasPrefix(".") ? String(name.dropFirst()) : name
    if let s = storage.services.first(where: { $0.fullName == wanted }) { return s }
    let byShortName = storage.services.filter { $0.fullName.split(separator: ".").last.map(String.init) == wanted }
    if byShortName.count == 1 { return byShortName[0] }
    throw ProtobufError(
      .unknownName, "unknown service '\(name)'",
      hint: NameSuggestions.hint(for: wanted, in: storage.services.map(\.fullName), kind: "service"))
  }
}
