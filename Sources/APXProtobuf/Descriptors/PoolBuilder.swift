/// Turns file descriptors (in any order) into resolved `PoolStorage`:
/// checks imports, registers every message and enum by full name, resolves
/// field types, JSON names, presence, packing, maps and oneofs.
struct PoolBuilder {
  private struct PendingMessage {
    var proto: RawDescriptor.Message
    var fullName: String
    var fileName: String
    var features: EffectiveFeatures
  }

  private struct PendingEnum {
    var proto: RawDescriptor.Enum
    var fullName: String
    var closed: Bool
  }

  private var messages: [PendingMessage] = []
  private var enums: [PendingEnum] = []
  private var messageIndex: [String: Int] = [:]
  private var enumIndex: [String: Int] = [:]
  private var symbolFile: [String: String] = [:]

  /// Builds the storage or throws `.invalidSchema` naming the broken file, type or field.
  static func build(files input: [RawDescriptor.File]) throws(ProtobufError) -> PoolStorage {
    // Reflection may answer the same file more than once: keep the first copy.
    var files: [RawDescriptor.File] = []
    var seen = Set<String>()
    for f in input where seen.insert(f.name).inserted { files.append(f) }
    for f in files {
      for dep in f.dependencies where !seen.contains(dep) {
        throw ProtobufError(
          .invalidSchema,
          "descriptor file '\(f.name)' imports '\(dep)', which is not among the \(files.count) loaded file(s)",
          hint:
            "build the protoset with `protoc --include_imports --descriptor_set_out=...`, or make sure the server's reflection answers include '\(dep)'"
        )
      }
    }
    var builder = PoolBuilder()
    for f in files { try builder.register(file: f) }
    return try builder.resolve(files: files)
  }

  private mutating func claim(_ fullName: String, file: String) throws(ProtobufError) {
    if let other = symbolFile[fullName] {
      throw ProtobufError(
        .invalidSchema, "'\(fullName)' is defined twice, in '\(other)' and in '\(file)'",
        hint: "remove one of the two definitions or give them different packages")
    }
    symbolFile[fullName] = file
  }

  private mutating func register(file: RawDescriptor.File) throws(ProtobufError) {
    let features = EffectiveFeatures.forFile(file)
    let prefix = file.package.isEmpty ? "" : file.package + "."
    for m in file.messages {
      try register(message: m, prefix: prefix, fileName: file.name, features: features)
    }
    for e in file.enums {
      try register(enum: e, prefix: prefix, fileName: file.name, features: features)
    }
  }

  private mutating func register(
    message: RawDescriptor.Message, prefix: String, fileName: String, features parent: EffectiveFeatures
  ) throws(ProtobufError) {
    let fullName = prefix + message.name
    try claim(fullName, file: fileName)
    var features = parent
    if let set = message.features { features.apply(set) }
    messageIndex[fullName] = messages.count
    messages.append(PendingMessage(proto: message, fullName: fullName, fileName: fileName, features: features))
    for nested in message.nested {
      try register(message: nested, prefix: fullName + ".", fileName: fileName, features: features)
    }
    for e in message.enums {
      try register(enum: e, prefix: fullName + ".", fileName: fileName, features: features)
    }
  }

  private mutating func register(
    enum e: RawDescriptor.Enum, prefix: String, fileName: String, features parent: EffectiveFeatures
  ) throws(ProtobufError) {
    let fullName = prefix + e.name
    try claim(fullName, file: fileName)
    var features = parent
    if let set = e.features { features.apply(set) }
    enumIndex[fullName] = enums.count
    enums.append(PendingEnum(proto: e, fullName: fullName, closed: features.closedEnums))
  }

  /// Resolves `typeName` as protoc does: a leading dot means fully qualified,
  /// otherwise search from the innermost enclosing scope outwards.
  private func lookup(_ typeName: String, scope: String) -> (isMessage: Bool, index: Int)? {
    func find(_ full: String) -> (Bool, Int)? {
      if let i = messageIndex[full] { return (true, i) }
      if let i = enumIndex[full] { return (false, i) }
      return nil
    }
    if typeName.hasPrefix(".") { return find(String(typeName.dropFirst())) }
    var parts = scope.split(separator: ".").map(String.init)
    while true {
      let candidate = (parts + [typeName]).joined(separator: ".")
      if let hit = find(candidate) { return hit }
      if parts.isEmpty { return nil }
      parts.removeLast()
    }
  }

  private func resolve(files: [RawDescriptor.File]) throws(ProtobufError) -> PoolStorage {
    var messageNodes: [MessageNode] = []
    messageNodes.reserveCapacity(messages.count)
    for pending in messages {
      messageNodes.append(try resolveMessage(pending))
    }
    let enumNodes = try enums.map { (e: PendingEnum) throws(ProtobufError) -> EnumNode in
      if e.proto.values.isEmpty {
        throw ProtobufError(.invalidSchema, "enum '\(e.fullName)' declares no values")
      }
      return EnumNode(fullName: e.fullName, values: e.proto.values.map { ($0.name, $0.number) }, isClosed: e.closed)
    }
    var services: [ServiceNode] = []
    for file in files {
      let prefix = file.package.isEmpty ? "" : file.package + "."
      for s in file.services {
        let fullName = prefix + s.name
        var methods: [ServiceNode.Method] = []
        for m in s.methods {
          guard let input = lookup(m.inputType, scope: file.package), input.isMessage,
            let output = lookup(m.outputType, scope: file.package), output.isMessage
          else {
            throw ProtobufError(
              .invalidSchema,
              "method '\(fullName).\(m.name)' uses message type '\(m.inputType)' or '\(m.outputType)', which is not defined in the loaded files"
            )
          }
          methods.append(
            ServiceNode.Method(
              name: m.name, inputIndex: input.index, outputIndex: output.index,
              clientStreaming: m.clientStreaming, serverStreaming: m.serverStreaming,
              idempotent: m.idempotencyLevel != 0))
        }
        services.append(ServiceNode(fullName: fullName, methods: methods))
      }
    }
    return PoolStorage(messages: messageNodes, enums: enumNodes, services: services, fileNames: files.map(\.name))
  }

  private func resolveMessage(_ pending: PendingMessage) throws(ProtobufError) -> MessageNode {
    let proto = pending.proto
    var fields: [(node: FieldNode, declaredOneof: Int)] = []
    fields.reserveCapacity(proto.fields.count)
    for f in proto.fields {
      // Built only for a message: interpolated for every field, it and a set of the numbers
      // (now the sorted check below) were 8% of building a reflected pool (`perf`).
      var where_: String { "field '\(pending.fullName).\(f.name)'" }
      guard f.number >= 1 && f.number <= 536_870_911 else {
        throw ProtobufError(.invalidSchema, "\(where_) has invalid number \(f.number) (must be 1...536870911)")
      }
      var type: ProtoFieldType
      var typeIndex = -1
      var typeName = ""
      if let fieldTypeName = f.typeName, !fieldTypeName.isEmpty {
        guard let hit = lookup(fieldTypeName, scope: pending.fullName) else {
          throw ProtobufError(
            .invalidSchema, "\(where_) refers to type '\(fieldTypeName)', which is not defined in the loaded files",
            hint: "include the file that defines it (protoc --include_imports)")
        }
        typeIndex = hit.index
        typeName = hit.isMessage ? messages[hit.index].fullName : enums[hit.index].fullName
        if let raw = f.type, let t = ProtoFieldType(rawValue: Int(raw)) {
          type = t
          let wantsMessage = t == .message || t == .group
          guard wantsMessage == hit.isMessage, t == .enum || wantsMessage else {
            throw ProtobufError(.invalidSchema, "\(where_) has type \(t.protoName) but names '\(typeName)'")
          }
        } else {
          type = hit.isMessage ? .message : .enum
        }
      } else {
        guard let raw = f.type, let t = ProtoFieldType(rawValue: Int(raw)), t != .message, t != .enum, t != .group
        else {
          throw ProtobufError(.invalidSchema, "\(where_) has no usable type")
        }
        type = t
      }
      var features = pending.features
      if let set = f.features { features.apply(set) }
      let isRepeated = f.label == 3
      let isMapEntryTarget = type == .message && messages[typeIndex].proto.isMapEntry
      if type == .message && features.delimitedMessages && !isMapEntryTarget {
        type = .group
      }
      let isPacked: Bool
      if isRepeated && type.isPackable {
        isPacked = f.packed ?? features.packed
      } else {
        isPacked = false
      }
      let oneofIndex = f.oneofIndex ?? -1
      let inOneof = f.oneofIndex != nil
      if inOneof && (oneofIndex < 0 || Int(oneofIndex) >= proto.oneofNames.count) {
        throw ProtobufError(.invalidSchema, "\(where_) has oneof index \(oneofIndex) out of range")
      }
      let hasPresence =
        !isRepeated
        && (type == .message || type == .group || inOneof || f.proto3Optional || f.label == 2
          || features.presence != .implicit)
      let jsonName = f.jsonName.flatMap { $0.isEmpty ? nil : $0 } ?? Self.lowerCamel(f.name)
      let node = FieldNode(
        name: f.name, jsonName: jsonName, number: f.number, type: type, isRepeated: isRepeated, isPacked: isPacked,
        hasPresence: hasPresence, oneofIndex: -1, typeIndex: typeIndex, isMap: isRepeated && isMapEntryTarget,
        typeName: typeName)
      fields.append((node, inOneof ? Int(oneofIndex) : -1))
    }
    fields.sort { $0.node.number < $1.node.number }
    // Sorted, a reused number sits next to its twin (no set of numbers needed).
    for (a, b) in zip(fields, fields.dropFirst()) where a.node.number == b.node.number {
      let names = [a.node.name, b.node.name].sorted().map { "'\(pending.fullName).\($0)'" }
      throw ProtobufError(.invalidSchema, "fields \(names[0]) and \(names[1]) both use number \(b.node.number)")
    }
    var oneofs = proto.oneofNames.map { OneofNode(name: $0, fieldIndices: [], isSynthetic: true) }
    var nodes: [FieldNode] = []
    for (i, entry) in fields.enumerated() {
      var node = entry.node
      if entry.declaredOneof >= 0 {
        node.oneofIndex = entry.declaredOneof
        oneofs[entry.declaredOneof].fieldIndices.append(i)
        let declared = proto.fields.first { $0.number == node.number }
        if declared?.proto3Optional != true { oneofs[entry.declaredOneof].isSynthetic = false }
      }
      nodes.append(node)
    }
    let isMapEntry = proto.isMapEntry
    if isMapEntry && !(nodes.count == 2 && nodes[0].number == 1 && nodes[1].number == 2) {
      throw ProtobufError(
        .invalidSchema, "map entry '\(pending.fullName)' must have exactly fields key = 1 and value = 2")
    }
    return MessageNode(
      fullName: pending.fullName, name: proto.name, fileName: pending.fileName, fields: nodes, oneofs: oneofs,
      isMapEntry: isMapEntry)
  }

  /// protoc's default JSON name: drop underscores and upper-case the letter after each.
  static func lowerCamel(_ name: String) -> String {
    var out = ""
    out.reserveCapacity(name.utf8.count)
    var upperNext = false
    for ch in name {
      if ch == "_" {
        upperNext = true
      } else if upperNext {
        out += ch.uppercased()
        upperNext = false
      } else {
        out.append(ch)
      }
    }
    return out
  }
}
