import APXCore
import Foundation
import PropertyBased
import SwiftProtobuf
import Testing

@testable import APXProtobuf

/// apx's own descriptor decoder (`RawDescriptor`) against SwiftProtobuf's generated one: the same
/// values from every file SwiftProtobuf accepts, and a clear failure, never a trap, otherwise.
@Suite(.timeLimit(.minutes(5)))
struct RawDescriptorTests {
  static let count = ProcessInfo.processInfo.environment["APX_FUZZ_COUNT"].flatMap(Int.init) ?? 150

  // MARK: What SwiftProtobuf reads, in RawDescriptor's terms

  static func expected(_ f: Google_Protobuf_FileDescriptorProto) -> RawDescriptor.File {
    RawDescriptor.File(
      name: f.name, package: f.package, dependencies: f.dependency, messages: f.messageType.map(expected),
      enums: f.enumType.map(expected), services: f.service.map(expected), syntax: f.syntax,
      features: f.hasOptions && f.options.hasFeatures ? expected(f.options.features) : nil)
  }

  static func expected(_ m: Google_Protobuf_DescriptorProto) -> RawDescriptor.Message {
    RawDescriptor.Message(
      name: m.name, fields: m.field.map(expected), nested: m.nestedType.map(expected), enums: m.enumType.map(expected),
      oneofNames: m.oneofDecl.map(\.name), isMapEntry: m.hasOptions && m.options.mapEntry,
      features: m.hasOptions && m.options.hasFeatures ? expected(m.options.features) : nil)
  }

  static func expected(_ f: Google_Protobuf_FieldDescriptorProto) -> RawDescriptor.Field {
    RawDescriptor.Field(
      name: f.name, number: f.number, label: f.hasLabel ? Int32(f.label.rawValue) : nil,
      type: f.hasType ? Int32(f.type.rawValue) : nil, typeName: f.hasTypeName ? f.typeName : nil,
      oneofIndex: f.hasOneofIndex ? f.oneofIndex : nil, jsonName: f.hasJsonName ? f.jsonName : nil,
      proto3Optional: f.proto3Optional, packed: f.hasOptions && f.options.hasPacked ? f.options.packed : nil,
      features: f.hasOptions && f.options.hasFeatures ? expected(f.options.features) : nil)
  }

  static func expected(_ e: Google_Protobuf_EnumDescriptorProto) -> RawDescriptor.Enum {
    RawDescriptor.Enum(
      name: e.name, values: e.value.map { RawDescriptor.EnumValue(name: $0.name, number: $0.number) },
      features: e.hasOptions && e.options.hasFeatures ? expected(e.options.features) : nil)
  }

  static func expected(_ s: Google_Protobuf_ServiceDescriptorProto) -> RawDescriptor.Service {
    RawDescriptor.Service(
      name: s.name,
      methods: s.method.map {
        RawDescriptor.Method(
          name: $0.name, inputType: $0.inputType, outputType: $0.outputType, clientStreaming: $0.clientStreaming,
          serverStreaming: $0.serverStreaming)
      })
  }

  static func expected(_ s: Google_Protobuf_FeatureSet) -> RawDescriptor.Features {
    RawDescriptor.Features(
      fieldPresence: s.hasFieldPresence ? Int32(s.fieldPresence.rawValue) : nil,
      enumType: s.hasEnumType ? Int32(s.enumType.rawValue) : nil,
      repeatedFieldEncoding: s.hasRepeatedFieldEncoding ? Int32(s.repeatedFieldEncoding.rawValue) : nil,
      messageEncoding: s.hasMessageEncoding ? Int32(s.messageEncoding.rawValue) : nil)
  }

  // MARK: Files

  /// A file that uses every part of descriptor.proto apx reads, and some it skips.
  static func richFile() -> Google_Protobuf_FileDescriptorProto {
    var features = Google_Protobuf_FeatureSet()
    features.fieldPresence = .implicit
    features.enumType = .closed
    features.repeatedFieldEncoding = .expanded
    features.messageEncoding = .delimited
    features.utf8Validation = .none
    var file = Google_Protobuf_FileDescriptorProto()
    file.name = "rich/ünïcode.proto"
    file.package = "rich.v1"
    file.dependency = ["google/protobuf/timestamp.proto", "other.proto"]
    file.syntax = "editions"
    file.edition = .edition2023
    file.options.javaPackage = "skipped.by.apx"
    file.options.features = features

    var entry = Google_Protobuf_DescriptorProto()
    entry.name = "TagsEntry"
    entry.options.mapEntry = true
    for (name, number, type) in [
      ("key", 1, Google_Protobuf_FieldDescriptorProto.TypeEnum.string), ("value", 2, .int64),
    ] {
      var f = Google_Protobuf_FieldDescriptorProto()
      f.name = name
      f.number = Int32(number)
      f.type = type
      f.label = .optional
      entry.field.append(f)
    }
    var message = Google_Protobuf_DescriptorProto()
    message.name = "Lesson"
    message.nestedType = [entry]
    message.oneofDecl = [Google_Protobuf_OneofDescriptorProto.with { $0.name = "choice" }]
    message.options.features.fieldPresence = .explicit
    message.options.deprecated = true
    message.reservedName = ["old"]
    var tags = Google_Protobuf_FieldDescriptorProto()
    tags.name = "tags"
    tags.number = 3
    tags.label = .repeated
    tags.type = .message
    tags.typeName = ".rich.v1.Lesson.TagsEntry"
    var scores = Google_Protobuf_FieldDescriptorProto()
    scores.name = "scores"
    scores.number = 536_870_911
    scores.label = .repeated
    scores.type = .sint32
    scores.options.packed = true
    scores.options.features.repeatedFieldEncoding = .packed
    var picked = Google_Protobuf_FieldDescriptorProto()
    picked.name = "picked_one"
    picked.number = 4
    picked.type = .enum
    picked.typeName = "Color"
    picked.oneofIndex = 0
    picked.jsonName = "pickedOne"
    picked.proto3Optional = true
    picked.defaultValue = "RED"
    var negative = Google_Protobuf_FieldDescriptorProto()
    negative.name = "negative_number"
    negative.number = -5
    negative.label = .required
    negative.type = .string
    message.field = [tags, scores, picked, negative]

    var color = Google_Protobuf_EnumDescriptorProto()
    color.name = "Color"
    color.value = [("RED", 0), ("GREEN", 1), ("MINUS", -1)].map { name, number in
      Google_Protobuf_EnumValueDescriptorProto.with {
        $0.name = name
        $0.number = Int32(number)
      }
    }
    color.options.features.enumType = .open
    file.messageType = [message]
    file.enumType = [color]

    var service = Google_Protobuf_ServiceDescriptorProto()
    service.name = "Lessons"
    service.method = [
      Google_Protobuf_MethodDescriptorProto.with {
        $0.name = "Watch"
        $0.inputType = ".rich.v1.Lesson"
        $0.outputType = "Lesson"
        $0.serverStreaming = true
      },
      Google_Protobuf_MethodDescriptorProto.with {
        $0.name = "Upload"
        $0.inputType = ".rich.v1.Lesson"
        $0.outputType = ".google.protobuf.Timestamp"
        $0.clientStreaming = true
        $0.options.deprecated = true
      },
    ]
    file.service = [service]
    file.sourceCodeInfo.location = [Google_Protobuf_SourceCodeInfo.Location.with { $0.path = [4, 0] }]
    return file
  }

  /// The serialized files of apxtest.protoset (reflection's form) and the rich file.
  static func samples() throws -> [[UInt8]] {
    let list = try #require(try Fixtures.json("reflection_files.json").arrayValue)
    return list.map { Fixtures.hex($0["hex"]?.stringValue ?? "") } + [try richFile().serializedBytes()]
  }

  // MARK: Tests

  @Test func everyFieldApxReadsMatchesSwiftProtobuf() throws {
    for bytes in try Self.samples() {
      let reference = try Google_Protobuf_FileDescriptorProto(serializedBytes: bytes, partial: true)
      #expect(try RawDescriptor.file(bytes) == Self.expected(reference), "\(reference.name)")
    }
    let rich = try RawDescriptor.file(try Self.richFile().serializedBytes())
    #expect(rich.features?.messageEncoding == 2 && rich.messages[0].fields[1].packed == true)
    #expect(rich.messages[0].fields[3].number == -5 && rich.enums[0].values[2].number == -1)
  }

  @Test func aProtosetDecodesToItsFiles() throws {
    let protoset = try Fixtures.bytes("apxtest.protoset")
    let reference = try Google_Protobuf_FileDescriptorSet(serializedBytes: protoset, partial: true)
    #expect(try RawDescriptor.files(ofSet: protoset) == reference.file.map(Self.expected))
  }

  /// The wire format's rules for what descriptor.proto's generated code never writes.
  @Test func repeatedOptionsMergeUnknownEnumNumbersAndOtherWireTypesAreIgnored() throws {
    // FieldDescriptorProto: name "a"; type 9 (string); type 99 (not a Type: ignored);
    // label given as a length-delimited value (not its wire type: skipped); options twice,
    // first packed = true, then features.field_presence = 2: merged.
    let field: [UInt8] =
      [0x0A, 0x01, 0x61, 0x28, 0x09, 0x28, 0x63, 0x22, 0x01, 0x03]
      + [0x42, 0x02, 0x10, 0x01] + [0x42, 0x05, 0xAA, 0x01, 0x02, 0x08, 0x02]
    let message: [UInt8] = [0x0A, 0x01, 0x4D, 0x12, UInt8(field.count)] + field
    let file: [UInt8] = [0x0A, 0x03, 0x61, 0x2E, 0x70, 0x22, UInt8(message.count)] + message
    let decoded = try RawDescriptor.file(file)
    let f = try #require(decoded.messages.first?.fields.first)
    #expect(f.name == "a" && f.type == 9 && f.label == nil)
    #expect(f.packed == true && f.features?.fieldPresence == 2)
    // SwiftProtobuf agrees where it decodes at all.
    if let reference = try? Google_Protobuf_FileDescriptorProto(serializedBytes: file, partial: true) {
      #expect(decoded == Self.expected(reference))
    }
  }

  @Test func brokenDescriptorsFailWithTheReason() throws {
    let truncated: [UInt8] = [0x0A, 0x05, 0x61]  // a name of 5 bytes, 1 there
    let cut = #expect(throws: ProtobufError.self) { try DescriptorPool(serializedFiles: [truncated]) }
    #expect(cut?.message == "file descriptor #1 is not a valid serialized FileDescriptorProto")
    #expect(cut?.underlyingText == "the bytes are not protobuf (length 5 at byte 1 runs past the end of the data)")

    let badName: [UInt8] = [0x0A, 0x02, 0xC3, 0x28]
    let text = #expect(throws: ProtobufError.self) { try DescriptorPool(serializedFiles: [badName]) }
    #expect(text?.underlyingText == "the name at byte 2 is not valid UTF-8")

    let garbage = #expect(throws: ProtobufError.self) { try DescriptorPool(protoset: [0x0A, 0x05, 0x01]) }
    #expect(garbage?.message == "the protoset is not a valid serialized FileDescriptorSet")
    #expect(garbage?.underlyingText?.contains("runs past the end of the data") == true)
  }

  /// Messages nested 100 deep decode; one more is refused before the stack is at risk.
  @Test func nestingIsLimited() throws {
    func nested(_ depth: Int) -> [UInt8] {
      var body: [UInt8] = [0x0A, 0x01, 0x4E]  // name "N"
      for _ in 1..<depth { body = [0x0A, 0x01, 0x4E, 0x1A] + Self.varint(body.count) + body }
      return [0x22] + Self.varint(body.count) + body
    }
    var message = try #require(try RawDescriptor.file(nested(100)).messages.first)
    var levels = 1
    while let inner = message.nested.first {
      message = inner
      levels += 1
    }
    #expect(levels == 100)
    let error = #expect(throws: WireFailure.self) { try RawDescriptor.file(nested(101)) }
    #expect(error?.message == "messages nested deeper than 100 levels")
  }

  /// Mutated descriptors: whatever SwiftProtobuf accepts decodes to the same values here;
  /// the rest fails with an error, never a trap or a hang.
  @Test func mutatedDescriptorsDecodeAsSwiftProtobufDoesOrFail() async throws {
    let samples = try Self.samples()
    let input = zip(Gen.int(in: 0...(samples.count - 1)), Gen.int(in: 0...Int.max).array(of: 1...6))
    await propertyCheck(count: Self.count, input: input) { index, edits in
      let bytes = CodecFuzzTests.mutate(samples[index], edits)
      let mine = try? RawDescriptor.file(bytes)
      if let reference = try? Google_Protobuf_FileDescriptorProto(serializedBytes: bytes, partial: true) {
        #expect(mine == Self.expected(reference))
      }
    }
  }

  static func varint(_ value: Int) -> [UInt8] {
    var v = UInt64(value)
    var out: [UInt8] = []
    while v >= 0x80 {
      out.append(UInt8(v & 0x7F) | 0x80)
      v >>= 7
    }
    return out + [UInt8(v)]
  }
}
