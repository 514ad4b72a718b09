/// The parts of descriptor.proto's messages that `PoolBuilder` reads, decoded straight from the
/// wire: names, numbers, types, labels, oneofs, JSON names, `packed`, `map_entry` and editions'
/// features. Everything else (source info, reserved ranges, extensions, custom options) is
/// skipped.
///
/// Written by hand, not SwiftProtobuf's generated `Google_Protobuf_FileDescriptorProto`: a
/// registry gRPC call with reflection spent 11% of its CPU samples building the pool, two
/// fifths of that in page faults on the first use of SwiftProtobuf's decoder and its per-message
/// storage classes (`perf`). The rules are the wire format's: a singular field seen
/// twice keeps the last scalar and merges messages; an enum value outside descriptor.proto's
/// closed enums counts as unset; a field of another wire type than its declaration is skipped,
/// as an unknown field would be.
enum RawDescriptor {
  /// A `FileDescriptorProto`.
  struct File: Equatable {
    var name = ""
    var package = ""
    var dependencies: [String] = []
    var messages: [Message] = []
    var enums: [Enum] = []
    var services: [Service] = []
    var syntax = ""
    var features: Features?
  }

  /// A `DescriptorProto`.
  struct Message: Equatable {
    var name = ""
    var fields: [Field] = []
    var nested: [Message] = []
    var enums: [Enum] = []
    var oneofNames: [String] = []
    var isMapEntry = false
    var features: Features?
  }

  /// A `FieldDescriptorProto`.
  struct Field: Equatable {
    var name = ""
    var number: Int32 = 0
    /// `Label`: 1 optional, 2 required, 3 repeated; nil when unset or unknown.
    var label: Int32?
    /// `Type`, 1...18; nil when unset or unknown.
    var type: Int32?
    var typeName: String?
    var oneofIndex: Int32?
    var jsonName: String?
    var proto3Optional = false
    /// `[packed = ...]`, when the field says.
    var packed: Bool?
    var features: Features?
  }

  /// An `EnumDescriptorProto`.
  struct Enum: Equatable {
    var name = ""
    var values: [EnumValue] = []
    var features: Features?
  }

  /// An `EnumValueDescriptorProto`.
  struct EnumValue: Equatable {
    var name = ""
    var number: Int32 = 0
  }

  /// A `ServiceDescriptorProto`.
  struct Service: Equatable {
    var name = ""
    var methods: [Method] = []
  }

  /// A `MethodDescriptorProto`.
  struct Method: Equatable {
    var name = ""
    var inputType = ""
    var outputType = ""
    var clientStreaming = false
    var serverStreaming = false
    /// `options.idempotency_level`: 1 NO_SIDE_EFFECTS, 2 IDEMPOTENT; 0 when unset or unknown.
    var idempotencyLevel: Int32 = 0
  }

  /// A `FeatureSet` (editions): each switch as its enum's number (0 is each enum's "unknown"),
  /// nil when unset or a number the enum does not declare.
  struct Features: Equatable {
    /// 1 explicit, 2 implicit, 3 legacy required.
    var fieldPresence: Int32?
    /// 1 open, 2 closed.
    var enumType: Int32?
    /// 1 packed, 2 expanded.
    var repeatedFieldEncoding: Int32?
    /// 1 length-prefixed, 2 delimited.
    var messageEncoding: Int32?
  }

  /// Decodes a serialized `FileDescriptorSet` into its files.
  static func files(ofSet bytes: [UInt8]) throws(WireFailure) -> [File] {
    try bytes.withUnsafeBufferPointer { (buffer) throws(WireFailure) -> [File] in
      var reader = WireReader(buffer, range: 0..<buffer.count)
      var files: [File] = []
      try reader.readFields { r, number, wireType throws(WireFailure) in
        guard number == 1, wireType == .lengthDelimited else { return false }
        var file = File()
        try r.readBody { o, n, t throws(WireFailure) in try file.read(&o, n, t) }
        files.append(file)
        return true
      }
      return files
    }
  }

  /// Decodes one serialized `FileDescriptorProto`.
  static func file(_ bytes: [UInt8]) throws(WireFailure) -> File {
    try bytes.withUnsafeBufferPointer { (buffer) throws(WireFailure) -> File in
      var reader = WireReader(buffer, range: 0..<buffer.count)
      var file = File()
      try reader.readFields { o, n, t throws(WireFailure) in try file.read(&o, n, t) }
      return file
    }
  }
}

// Each `read` takes one field of its message from `r` (its tag just read) and says whether it
// knew the field; `WireReader.readFields` skips the others.

extension RawDescriptor.File {
  fileprivate mutating func read(_ r: inout WireReader, _ number: Int32, _ wireType: WireType) throws(WireFailure)
    -> Bool
  {
    switch (number, wireType) {
    case (1, .lengthDelimited): name = try r.string("name")
    case (2, .lengthDelimited): package = try r.string("package")
    case (3, .lengthDelimited): dependencies.append(try r.string("dependency"))
    case (4, .lengthDelimited):
      var message = RawDescriptor.Message()
      try r.readBody { o, n, t throws(WireFailure) in try message.read(&o, n, t, depth: 1) }
      messages.append(message)
    case (5, .lengthDelimited):
      var e = RawDescriptor.Enum()
      try r.readBody { o, n, t throws(WireFailure) in try e.read(&o, n, t) }
      enums.append(e)
    case (6, .lengthDelimited):
      var service = RawDescriptor.Service()
      try r.readBody { o, n, t throws(WireFailure) in try service.read(&o, n, t) }
      services.append(service)
    case (8, .lengthDelimited): try r.readOptions(featuresField: 50, into: &features)
    case (12, .lengthDelimited): syntax = try r.string("syntax")
    default: return false
    }
    return true
  }
}

extension RawDescriptor.Message {
  fileprivate mutating func read(
    _ r: inout WireReader, _ number: Int32, _ wireType: WireType, depth: Int
  ) throws(WireFailure) -> Bool {
    guard depth <= ProtobufLimits.maxDepth else {
      throw WireFailure(message: "messages nested deeper than \(ProtobufLimits.maxDepth) levels")
    }
    switch (number, wireType) {
    case (1, .lengthDelimited): name = try r.string("message name")
    case (2, .lengthDelimited):
      var field = RawDescriptor.Field()
      try r.readBody { o, n, t throws(WireFailure) in try field.read(&o, n, t) }
      fields.append(field)
    case (3, .lengthDelimited):
      var message = RawDescriptor.Message()
      try r.readBody { o, n, t throws(WireFailure) in try message.read(&o, n, t, depth: depth + 1) }
      nested.append(message)
    case (4, .lengthDelimited):
      var e = RawDescriptor.Enum()
      try r.readBody { o, n, t throws(WireFailure) in try e.read(&o, n, t) }
      enums.append(e)
    case (7, .lengthDelimited):
      // MessageOptions: map_entry = 7, features = 12.
      try r.readBody { o, n, t throws(WireFailure) in
        switch (n, t) {
        case (7, .varint): isMapEntry = try o.varint() != 0
        case (12, .lengthDelimited): try o.readFeatures(into: &features)
        default: return false
        }
        return true
      }
    case (8, .lengthDelimited):
      // OneofDescriptorProto: name = 1.
      var oneofName = ""
      try r.readBody { o, n, t throws(WireFailure) in
        guard n == 1, t == .lengthDelimited else { return false }
        oneofName = try o.string("oneof name")
        return true
      }
      oneofNames.append(oneofName)
    default: return false
    }
    return true
  }
}

extension RawDescriptor.Field {
  fileprivate mutating func read(_ r: inout WireReader, _ fieldNumber: Int32, _ wireType: WireType) throws(WireFailure)
    -> Bool
  {
    switch (fieldNumber, wireType) {
    case (1, .lengthDelimited): name = try r.string("field name")
    case (3, .varint): number = Int32(truncatingIfNeeded: try r.varint())
    case (4, .varint): label = RawDescriptor.known(try r.varint(), in: 1...3) ?? label
    case (5, .varint): type = RawDescriptor.known(try r.varint(), in: 1...18) ?? type
    case (6, .lengthDelimited): typeName = try r.string("type_name")
    case (8, .lengthDelimited):
      // FieldOptions: packed = 2, features = 21.
      try r.readBody { o, n, t throws(WireFailure) in
        switch (n, t) {
        case (2, .varint): packed = try o.varint() != 0
        case (21, .lengthDelimited): try o.readFeatures(into: &features)
        default: return false
        }
        return true
      }
    case (9, .varint): oneofIndex = Int32(truncatingIfNeeded: try r.varint())
    case (10, .lengthDelimited): jsonName = try r.string("json_name")
    case (17, .varint): proto3Optional = try r.varint() != 0
    default: return false
    }
    return true
  }
}

extension RawDescriptor.Enum {
  fileprivate mutating func read(_ r: inout WireReader, _ number: Int32, _ wireType: WireType) throws(WireFailure)
    -> Bool
  {
    switch (number, wireType) {
    case (1, .lengthDelimited): name = try r.string("enum name")
    case (2, .lengthDelimited):
      // EnumValueDescriptorProto: name = 1, number = 2.
      var value = RawDescriptor.EnumValue()
      try r.readBody { o, n, t throws(WireFailure) in
        switch (n, t) {
        case (1, .lengthDelimited): value.name = try o.string("enum value name")
        case (2, .varint): value.number = Int32(truncatingIfNeeded: try o.varint())
        default: return false
        }
        return true
      }
      values.append(value)
    case (3, .lengthDelimited): try r.readOptions(featuresField: 7, into: &features)
    default: return false
    }
    return true
  }
}

extension RawDescriptor.Service {
  fileprivate mutating func read(_ r: inout WireReader, _ number: Int32, _ wireType: WireType) throws(WireFailure)
    -> Bool
  {
    switch (number, wireType) {
    case (1, .lengthDelimited): name = try r.string("service name")
    case (2, .lengthDelimited):
      var method = RawDescriptor.Method()
      try r.readBody { o, n, t throws(WireFailure) in
        switch (n, t) {
        case (1, .lengthDelimited): method.name = try o.string("method name")
        case (2, .lengthDelimited): method.inputType = try o.string("input_type")
        case (3, .lengthDelimited): method.outputType = try o.string("output_type")
        case (5, .varint): method.clientStreaming = try o.varint() != 0
        case (6, .varint): method.serverStreaming = try o.varint() != 0
        case (4, .lengthDelimited):
          try o.readBody { options, n, t throws(WireFailure) in
            guard (n, t) == (34, .varint) else { return false }
            method.idempotencyLevel = RawDescriptor.known(try options.varint(), in: 0...2) ?? 0
            return true
          }
        default: return false
        }
        return true
      }
      methods.append(method)
    default: return false
    }
    return true
  }
}

extension RawDescriptor {
  /// The value of a closed enum field when descriptor.proto declares it, else nil.
  fileprivate static func known(_ raw: UInt64, in range: ClosedRange<Int32>) -> Int32? {
    let value = Int32(truncatingIfNeeded: raw)
    return range.contains(value) && raw <= UInt64(Int32.max) ? value : nil
  }
}

extension WireReader {
  /// Reads every field left, handing each to `read`; those it does not know (it returns false)
  /// are skipped.
  fileprivate mutating func readFields(
    _ read: (inout WireReader, Int32, WireType) throws(WireFailure) -> Bool
  ) throws(WireFailure) {
    while !isAtEnd {
      let (number, wireType) = try tag()
      if try !read(&self, number, wireType) {
        try skip(number: number, wireType: wireType, depth: 0)
      }
    }
  }

  /// `readFields` over the body of the length-delimited field whose tag was just read.
  fileprivate mutating func readBody(
    _ read: (inout WireReader, Int32, WireType) throws(WireFailure) -> Bool
  ) throws(WireFailure) {
    var body = WireReader(base, range: try lengthDelimited())
    try body.readFields(read)
  }

  /// A length-delimited field as UTF-8 text.
  fileprivate mutating func string(_ what: String) throws(WireFailure) -> String {
    let range = try lengthDelimited()
    guard let text = String(validating: UnsafeBufferPointer(rebasing: base[range]), as: UTF8.self) else {
      throw WireFailure(message: "the \(what) at byte \(range.lowerBound) is not valid UTF-8", isWireFormat: false)
    }
    return text
  }

  /// Reads an options message (the body of the field whose tag was just read) for its
  /// `features` field, merged into `features`.
  fileprivate mutating func readOptions(
    featuresField: Int32, into features: inout RawDescriptor.Features?
  ) throws(WireFailure) {
    try readBody { o, n, t throws(WireFailure) in
      guard n == featuresField, t == .lengthDelimited else { return false }
      try o.readFeatures(into: &features)
      return true
    }
  }

  /// Reads a `FeatureSet` (the body of the field whose tag was just read) into `features`.
  fileprivate mutating func readFeatures(into features: inout RawDescriptor.Features?) throws(WireFailure) {
    var set = features ?? RawDescriptor.Features()
    try readBody { o, n, t throws(WireFailure) in
      guard t == .varint else { return false }
      switch n {
      case 1: set.fieldPresence = RawDescriptor.known(try o.varint(), in: 0...3) ?? set.fieldPresence
      case 2: set.enumType = RawDescriptor.known(try o.varint(), in: 0...2) ?? set.enumType
      case 3: set.repeatedFieldEncoding = RawDescriptor.known(try o.varint(), in: 0...2) ?? set.repeatedFieldEncoding
      case 5: set.messageEncoding = RawDescriptor.known(try o.varint(), in: 0...2) ?? set.messageEncoding
      default: return false
      }
      return true
    }
    features = set
  }
}
