import SwiftProtobuf

/// Several serialized `FileDescriptorSet`s as one, each file once (by name), in first-seen order:
/// two APIs' sets often share imports such as `google/protobuf/timestamp.proto`.
enum DescriptorSetMerge {
  static func merged(_ sets: [[UInt8]]) throws -> [UInt8] {
    if sets.count == 1, let only = sets.first { return only }
    var merged = Google_Protobuf_FileDescriptorSet()
    var names: Set<String> = []
    for bytes in sets {
      for file in try Google_Protobuf_FileDescriptorSet(serializedBytes: bytes).file
      where names.insert(file.name).inserted {
        merged.file.append(file)
      }
    }
    return try merged.serializedBytes()
  }
}
