/// The parts of descriptor.proto's messages that `PoolBuilder` reads, decoded straight from the
/// wire: names, numbers, types, labels, oneofs, JSON names, `packed`, `map_entry` and editions'
/// features. Everything else (source info, reserved ranges, extensions, custom options) is
/// skipped.
///
/// Written by hand, not SwiftProtobuf's generated `Google_Protobuf_FileDescriptorProto`: a
/// registry gRPC call with reflection spent 11% of its CPU samples building the pool, two
/// fifths of that in page faults on the first use of SwiftProtobuf's decoder and its per-message
/// storage classes (`perf`, session 14). The rules are the wire format's: a singular field seen
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
      while !reader.isAtEnd {
        let (fieldNumber, wireType) = try reader.tag()
        if fieldNumber == 1 && wireType == .lengthDelimited {
          var file = File()
          var body = try reader.bodyReader()
          try file.merge(&body)
          files.append(file)
        } else {
          try reader.skip(number: fieldNumber, wireType: wireType, depth: 0)
        }
      }
      return files
    }
  }

  /// Decodes one serialized `FileDescriptorProto`.
  static func file(_ bytes: [UInt8]) throws(WireFailure) -> File {
    try bytes.withUnsafeBufferPointer { (buffer) throws(WireFailure) -> File in
      var reader = WireReader(buffer, range: 0..<buffer.count)
      var file = File()
      try file.merge(&reader)
      return file
    }
  }
}

extension RawDescriptor.File {
  fileprivate mutating func merge(_ reader: inout WireReader) throws(WireFailure) {
    while !reader.isAtEnd {
      let (fieldNumber, wireType) = try reader.tag()
      switch (fieldNumber, wireType) {
      case (1, .lengthDelimited): name = try reader.string("name")
      case (2, .lengthDelimited): package = try reader.string("package")
      case (3, .lengthDelimited): dependencies.append(try reader.string("dependency"))
      case (4, .lengthDelimited):
        var message = RawDescriptor.Message()
        var body = try reader.bodyReader()
        try message.merge(&body, depth: 1)
        messages.append(message)
      case (5, .lengthDelimited):
        var e = RawDescriptor.Enum()
        var body = try reader.bodyReader()
        try e.merge(&body)
        enums.append(e)
      case (6, .lengthDelimited):
        var service = RawDescriptor.Service()
        var body = try reader.bodyReader()
        try service.merge(&body)
        services.append(service)
      case (8, .lengthDelimited): try reader.mergeOptions(featuresField: 50, into: &features)
      case (12, .lengthDelimited): syntax = try reader.string("syntax")
      default: try reader.skip(number: fieldNumber, wireType: wireType, depth: 0)
      }
    }
  }
}

extension RawDescriptor.Message {
  fileprivate mutating func merge(_ reader: inout WireReader, depth: Int) throws(WireFailure) {
    guard depth <= ProtobufLimits.maxDepth else {
      throw WireFailure(message: "messages nested deeper than \(ProtobufLimits.maxDepth) levels")
    }
    while !reader.isAtEnd {
      let (fieldNumber, wireType) = try reader.tag()
      switch (fieldNumber, wireType) {
      case (1, .lengthDelimited): name = try reader.string("message name")
      case (2, .lengthDelimited):
        var field = RawDescriptor.Field()
        var body = try reader.bodyReader()
        try field.merge(&body)
        fields.append(field)
      case (3, .lengthDelimited):
        var message = RawDescriptor.Message()
        var body = try reader.bodyReader()
        try message.merge(&body, depth: depth + 1)
        nested.append(message)
      case (4, .lengthDelimited):
        var e = RawDescriptor.Enum()
        var body = try reader.bodyReader()
        try e.merge(&body)
        enums.append(e)
      case (7, .lengthDelimited):
        // MessageOptions: map_entry = 7, features = 12.
        var body = try reader.bodyReader()
        while !body.isAtEnd {
          let (n, t) = try body.tag()
          switch (n, t) {
          case (7, .varint): isMapEntry = try body.varint() != 0
          case (12, .lengthDelimited): try body.mergeFeatures(into: &features)
          default: try body.skip(number: n, wireType: t, depth: 0)
          }
        }
      case (8, .lengthDelimited):
        // OneofDescriptorProto: name = 1.
        var body = try reader.bodyReader()
        var oneofName = ""
        while !body.isAtEnd {
          let (n, t) = try body.tag()
          if n == 1 && t == .lengthDelimited {
            oneofName = try body.string("oneof name")
          } else {
            try body.skip(number: n, wireType: t, depth: 0)
          }
        }
        oneofNames.append(oneofName)
      default: try reader.skip(number: fieldNumber, wireType: wireType, depth: 0)
      }
    }
  }
}

extension RawDescriptor.Field {
  fileprivate mutating func merge(_ reader: inout WireReader) throws(WireFailure) {
    while !reader.isAtEnd {
      let (fieldNumber, wireType) = try reader.tag()
      switch (fieldNumber, wireType) {
      case (1, .lengthDelimited): name = try reader.string("field name")
      case (3, .varint): number = Int32(truncatingIfNeeded: try reader.varint())
      case (4, .varint): label = RawDescriptor.known(try reader.varint(), in: 1...3) ?? label
      case (5, .varint): type = RawDescriptor.known(try reader.varint(), in: 1...18) ?? type
      case (6, .lengthDelimited): typeName = try reader.string("type_name")
      case (8, .lengthDelimited):
        // FieldOptions: packed = 2, features = 21.
        var body = try reader.bodyReader()
        while !body.isAtEnd {
          let (n, t) = try body.tag()
          switch (n, t) {
          case (2, .varint): packed = try body.varint() != 0
          case (21, .lengthDelimited): try body.mergeFeatures(into: &features)
          default: try body.skip(number: n, wireType: t, depth: 0)
          }
        }
      case (9, .varint): oneofIndex = Int32(truncatingIfNeeded: try reader.varint())
      case (10, .lengthDelimited): jsonName = try reader.string("json_name")
      case (17, .varint): proto3Optional = try reader.varint() != 0
      default: try reader.skip(number: fieldNumber, wireType: wireType, depth: 0)
      }
    }
  }
}

extension RawDescriptor.Enum {
  fileprivate mutating func merge(_ reader: inout WireReader) throws(WireFailure) {
    while !reader.isAtEnd {
      let (fieldNumber, wireType) = try reader.tag()
      switch (fieldNumber, wireType) {
      case (1, .lengthDelimited): name = try reader.string("enum name")
      case (2, .lengthDelimited):
        // EnumValueDescriptorProto: name = 1, number = 2.
        var body = try reader.bodyReader()
        var value = RawDescriptor.EnumValue()
        while !body.isAtEnd {
          let (n, t) = try body.tag()
          switch (n, t) {
          case (1, .lengthDelimited): value.name = try body.string("enum value name")
          case (2, .varint): value.number = Int32(truncatingIfNeeded: try body.varint())
          default: try body.skip(number: n, wireType: t, depth: 0)
          }
        }
        values.append(value)
      case (3, .lengthDelimited): try reader.mergeOptions(featuresField: 7, into: &features)
      default: try reader.skip(number: fieldNumber, wireType: wireType, depth: 0)
      }
    }
  }
}

extension RawDescriptor.Service {
  fileprivate mutating func merge(_ reader: inout WireReader) throws(WireFailure) {
    while !reader.isAtEnd {
      let (fieldNumber, wireType) = try reader.tag()
      switch (fieldNumber, wireType) {
      case (1, .lengthDelimited): name = try reader.string("service name")
      case (2, .lengthDelimited):
        var method = RawDescriptor.Method()
        var body = try reader.bodyReader()
        while !body.isAtEnd {
          let (n, t) = try body.tag()
          switch (n, t) {
          case (1, .lengthDelimited): method.name = try body.string("method name")
          case (2, .lengthDelimited): method.inputType = try body.string("input_type")
          case (3, .lengthDelimited): method.outputType = try body.string("output_type")
          case (5, .varint): method.clientStreaming = try body.varint() != 0
          case (6, .varint): method.serverStreaming = try body.varint() != 0
          default: try body.skip(number: n, wireType: t, depth: 0)
          }
        }
        methods.append(method)
      default: try reader.skip(number: fieldNumber, wireType: wireType, depth: 0)
      }
    }
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
  /// A reader over the body of the length-delimited field whose tag was just read.
  fileprivate mutating func bodyReader() throws(WireFailure) -> WireReader {
    WireReader(base, range: try lengthDelimited())
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
  fileprivate mutating func mergeOptions(
    featuresField: Int32, into features: inout RawDescriptor.Features?
  ) throws(WireFailure) {
    var body = try bodyReader()
    while !body.isAtEnd {
      let (n, t) = try body.tag()
      if n == featuresField && t == .lengthDelimited {
        try body.mergeFeatures(into: &features)
      } else {
        try body.skip(number: n, wireType: t, depth: 0)
      }
    }
  }

  /// Reads a `FeatureSet` (the body of the field whose tag was just read) into `features`.
  fileprivate mutating func mergeFeatures(into features: inout RawDescriptor.Features?) throws(WireFailure) {
    var body = try bodyReader()
    var set = features ?? RawDescriptor.Features()
    while !body.isAtEnd {
      let (n, t) = try body.tag()
      switch (n, t) {
      case (1, .varint): set.fieldPresence = RawDescriptor.known(try body.varint(), in: 0...3) ?? set.fieldPresence
      case (2, .varint): set.enumType = RawDescriptor.known(try body.varint(), in: 0...2) ?? set.enumType
      case (3, .varint):
        set.repeatedFieldEncoding = RawDescriptor.known(try body.varint(), in: 0...2) ?? set.repeatedFieldEncoding
      case (5, .varint):
        set.messageEncoding = RawDescriptor.known(try body.varint(), in: 0...2) ?? set.messageEncoding
      default: try body.skip(number: n, wireType: t, depth: 0)
      }
    }
    features = set
  }
}
