import SwiftProtobuf

// protoc fills in `json_name` on every field it writes, but reflection servers built by other
// tools (or from hand-made descriptors) often leave it out. The index can serve its descriptors
// that way (`DemoGRPCServer.start(reflectionOmitsJSONNames:)`) so clients are tested against it.

extension Google_Protobuf_FileDescriptorProto {
  /// Clears `json_name` on every field and extension of the file, nested messages included.
  mutating func removeJSONNames() {
    for index in self.messageType.indices { self.messageType[index].removeJSONNames() }
    for index in self.extension.indices { self.extension[index].clearJsonName() }
  }
}

extension Google_Protobuf_DescriptorProto {
  /// Clears `json_name` on the message's fields and extensions, recursively.
  mutating func removeJSONNames() {
    for index in self.field.indices { self.field[index].clearJsonName() }
    for index in self.extension.indices { self.extension[index].clearJsonName() }
    for index in self.nestedType.indices { self.nestedType[index].removeJSONNames() }
  }
}
