import SwiftProtobuf

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Answers server-reflection lookups from a `FileDescriptorSet`: which services exist, which
/// file declares a symbol, and a file with everything it imports.
package struct ReflectionIndex: Sendable {
  /// Why a lookup found nothing.
  package struct LookupError: Error, Sendable {
    /// Explanation for the client.
    package var message: String

    package init(message: String) { self.message = message }
  }

  /// Each file, serialized, by file name.
  private let serializedFiles: [String: [UInt8]]
  /// Each file's direct imports, by file name.
  private let dependencies: [String: [String]]
  /// The file declaring each fully-qualified symbol (without a leading dot).
  private let fileBySymbol: [String: String]
  /// Fully-qualified message type names.
  private let messageTypes: Set<String>
  /// Fully-qualified service names, sorted.
  package let serviceNames: [String]

  /// Indexes a serialized `google.protobuf.FileDescriptorSet`; with `omitJSONNames`, the files
  /// are served without `json_name` on their fields, as some reflection servers do; a `fault`
  /// breaks the files served.
  package init(descriptorSetBytes: [UInt8], omitJSONNames: Bool = false, fault: ReflectionFault? = nil) throws {
    var set = try Google_Protobuf_FileDescriptorSet(serializedBytes: descriptorSetBytes)
    if omitJSONNames {
      for index in set.file.indices { set.file[index].removeJSONNames() }
    }
    if fault == .unlinkedFiles {
      for index in set.file.indices { set.file[index].dependency = [] }
    }
    var serializedFiles: [String: [UInt8]] = [:]
    var dependencies: [String: [String]] = [:]
    var fileBySymbol: [String: String] = [:]
    var messageTypes: Set<String> = []
    var serviceNames: [String] = []

    for file in set.file {
      // Field 1 with wire type 7, which protobuf does not have.
      serializedFiles[file.name] = fault == .undecodableFiles ? [0x0F, 0x00] : try file.serializedBytes()
      dependencies[file.name] = file.dependency
      let scope = file.package.isEmpty ? "" : file.package + "."
      func declare(_ name: String) { fileBySymbol[name] = file.name }

      func indexMessage(_ message: Google_Protobuf_DescriptorProto, prefix: String) {
        let name = prefix + message.name
        declare(name)
        messageTypes.insert(name)
        for field in message.field { declare(name + "." + field.name) }
        for oneof in message.oneofDecl { declare(name + "." + oneof.name) }
        for nested in message.nestedType { indexMessage(nested, prefix: name + ".") }
        for nested in message.enumType { indexEnum(nested, prefix: name + ".") }
        for ext in message.extension { declare(name + "." + ext.name) }
      }
      func indexEnum(_ enumType: Google_Protobuf_EnumDescriptorProto, prefix: String) {
        declare(prefix + enumType.name)
        // Enum values are scoped like siblings of their enum, as in C++.
        for value in enumType.value { declare(prefix + value.name) }
      }

      for message in file.messageType { indexMessage(message, prefix: scope) }
      for enumType in file.enumType { indexEnum(enumType, prefix: scope) }
      for ext in file.extension { declare(scope + ext.name) }
      for service in file.service {
        let name = scope + service.name
        declare(name)
        serviceNames.append(name)
        for method in service.method { declare(name + "." + method.name) }
      }
    }
    self.serializedFiles = serializedFiles
    self.dependencies = dependencies
    self.fileBySymbol = fileBySymbol
    self.messageTypes = messageTypes
    self.serviceNames = serviceNames.sorted()
  }

  /// The file named `name` followed by its transitive imports, each serialized once.
  func fileWithDependencies(named name: String) throws(LookupError) -> [[UInt8]] {
    guard self.serializedFiles[name] != nil else {
      throw LookupError(message: "File not found: '\(name)'.")
    }
    var ordered: [String] = []
    var seen: Set<String> = []
    var pending = [name]
    while let next = pending.popLast() {
      guard seen.insert(next).inserted else { continue }
      ordered.append(next)
      pending.append(contentsOf: (self.dependencies[next] ?? []).reversed())
    }
    // A dependency missing from the set cannot be served; its absence shows in the answer.
    return ordered.compactMap { self.serializedFiles[$0] }
  }

  /// The file declaring `symbol` (a leading dot is tolerated) with its transitive imports.
  func fileContainingSymbol(_ symbol: String) throws(LookupError) -> [[UInt8]] {
    let name = symbol.hasPrefix(".") ? String(symbol.dropFirst()) : symbol
    guard let file = self.fileBySymbol[name] else {
      throw LookupError(message: "Symbol not found: '\(symbol)'.")
    }
    return try self.fileWithDependencies(named: file)
  }

  /// Whether `typeName` names a message type this index knows.
  func hasMessageType(_ typeName: String) -> Bool {
    let name = typeName.hasPrefix(".") ? String(typeName.dropFirst()) : typeName
    return self.messageTypes.contains(name)
  }
}

/// A broken reflection answer a server can give (the demo's `DemoGRPCServer.start(reflectionFault:)`),
/// so clients are tested against servers whose reflection is wrong.
public enum ReflectionFault: Sendable, Hashable {
  /// Every file descriptor is served as bytes that are not protobuf.
  case undecodableFiles
  /// Files are served without their imports (and without naming them), so the types they use
  /// from other files are not defined anywhere in the answer.
  case unlinkedFiles
}
