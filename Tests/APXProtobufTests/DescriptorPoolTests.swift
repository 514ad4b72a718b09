import APXCore
import APXProtobuf
import SwiftProtobuf
import Testing

@Suite struct DescriptorPoolTests {
  /// The files of apxtest.protoset, serialized one by one in reverse dependency
  /// order and without json_name, as a reflection server may answer.
  static func reflectionFiles() throws -> [(name: String, bytes: [UInt8])] {
    let list = try #require(try Fixtures.json("reflection_files.json").arrayValue)
    return list.map { ($0["name"]?.stringValue ?? "", Fixtures.hex($0["hex"]?.stringValue ?? "")) }
  }

  @Test func protosetWithImportsLoads() throws {
    let pool = try Fixtures.requirePool()
    #expect(pool.fileNames.contains("apxtest.proto"))
    #expect(pool.fileNames.contains("google/protobuf/timestamp.proto"))
    #expect(pool.fileNames.count >= 8)
    #expect(pool.services == ["apxtest.v1.LessonService"])
    #expect(pool.message("apxtest.v1.Lesson.Section") != nil)
    #expect(pool.message(".apxtest.v1.Lesson")?.fullName == "apxtest.v1.Lesson")
    #expect(pool.enumType(".apxtest.v1.Color")?.number(of: "COLOR_NEGATIVE") == -1)
    #expect(pool.enumType("apxtest.v1.Lesson.Status")?.values.first?.name == "STATUS_UNSPECIFIED")
  }

  @Test func methodsResolveWithStreamingShape() throws {
    let pool = try Fixtures.requirePool()
    let unary = try pool.method(service: "apxtest.v1.LessonService", method: "CreateLesson")
    #expect(unary.input.fullName == "apxtest.v1.CreateLessonRequest")
    #expect(unary.output.fullName == "apxtest.v1.Lesson")
    #expect(!unary.clientStreaming && !unary.serverStreaming)
    #expect(unary.path == "/apxtest.v1.LessonService/CreateLesson")
    let server = try pool.method(service: ".apxtest.v1.LessonService", method: "WatchLesson")
    #expect(!server.clientStreaming && server.serverStreaming)
    let client = try pool.method(service: "LessonService", method: "UploadLessons")
    #expect(client.clientStreaming && !client.serverStreaming)
    #expect(client.output.fullName == "google.protobuf.Empty")
    let bidi = try pool.method(service: "apxtest.v1.LessonService", method: "Chat")
    #expect(bidi.clientStreaming && bidi.serverStreaming)
    #expect(
      try pool.methods(of: "apxtest.v1.LessonService") == ["CreateLesson", "WatchLesson", "UploadLessons", "Chat"])
  }

  @Test func unknownMethodSuggestsValidNames() throws {
    let pool = try Fixtures.requirePool()
    let error = #expect(throws: ProtobufError.self) {
      try pool.method(service: "apxtest.v1.LessonService", method: "CreateLeson")
    }
    #expect(error?.kind == .unknownName)
    #expect(error?.message == "service 'apxtest.v1.LessonService' has no method 'CreateLeson'")
    #expect(error?.hint?.contains("did you mean 'CreateLesson'?") == true)
    #expect(error?.hint?.contains("valid methods: Chat, CreateLesson, UploadLessons, WatchLesson") == true)

    let serviceError = #expect(throws: ProtobufError.self) {
      try pool.method(service: "apxtest.v1.LesonService", method: "Chat")
    }
    #expect(serviceError?.hint?.contains("did you mean 'apxtest.v1.LessonService'?") == true)

    let typeError = #expect(throws: ProtobufError.self) { try pool.message(named: "apxtest.v1.Lessen") }
    #expect(typeError?.hint?.contains("'apxtest.v1.Lesson'") == true)
  }

  @Test func fieldsMapsOneofsAndPresence() throws {
    let pool = try Fixtures.requirePool()
    let e = try pool.message(named: "apxtest.v1.Everything")
    let numbers = e.fields.map(\.number)
    #expect(numbers == numbers.sorted())
    let nestedMap = try #require(e.field(named: "nestedMap"))
    #expect(nestedMap.isMap && nestedMap.isRepeated)
    #expect(nestedMap.messageType?.isMapEntry == true)
    #expect(nestedMap.description == "map<string, apxtest.v1.Nested> nested_map = 30")
    #expect(e.field(named: "int_map")?.description == "map<int64, string> int_map = 31")
    #expect(e.field(named: "packed_int32")?.isPacked == true)
    #expect(e.field(named: "unpacked_int32")?.isPacked == false)
    #expect(e.field(named: "tags")?.isPacked == false)
    #expect(e.field(named: "f_int32")?.hasPresence == false)
    #expect(e.field(named: "optInt32")?.hasPresence == true)
    #expect(e.field(named: "optInt32")?.oneofName == nil)
    #expect(e.field(named: "choiceText")?.oneofName == "choice")
    #expect(e.field(named: "nested")?.hasPresence == true)
    #expect(e.field(named: "customName")?.name == "renamed")
    #expect(e.field(number: 100000)?.jsonName == "farAway")
    // Synthetic oneofs of proto3 optional fields are not listed.
    #expect(e.oneofs.map(\.name) == ["choice"])
    #expect(e.oneofs.first?.fields == ["choice_text", "choice_number", "choice_nested", "choice_time"])
    #expect(e.field(named: "color")?.enumType?.fullName == "apxtest.v1.Color")
  }

  /// Reflection answers: files in any order, json_name missing (filled in as lowerCamelCase).
  @Test func reflectionFilesInAnyOrderWithoutJSONNames() throws {
    let files = try Self.reflectionFiles()
    #expect(files.first?.name == "apxtest.proto")  // dependents before their imports
    let pool = try DescriptorPool(serializedFiles: files.map(\.bytes))
    let e = try pool.message(named: "apxtest.v1.Everything")
    #expect(e.field(number: 3)?.jsonName == "fInt32")
    #expect(e.field(number: 30)?.jsonName == "nestedMap")
    #expect(e.field(number: 100000)?.jsonName == "farAway")
    #expect(e.field(number: 90)?.jsonName == "renamed")  // the custom json_name was stripped too
    // Same decoding as with the protoset for a message without the renamed field.
    let lesson = try #require(GoldenFixtureTests.golden.first { $0.name == "lesson" })
    let type = try pool.message(named: "apxtest.v1.Lesson")
    let decoded = try pool.decode(Fixtures.hex(lesson.string("hex")), as: type)
    #expect(jsonEquivalent(decoded, try #require(lesson["json"])))
  }

  @Test func missingDependencyIsAClearError() throws {
    let files = try Self.reflectionFiles().filter { $0.name != "google/protobuf/timestamp.proto" }
    let error = #expect(throws: ProtobufError.self) { try DescriptorPool(serializedFiles: files.map(\.bytes)) }
    #expect(error?.kind == .invalidSchema)
    #expect(
      error?.message
        == "descriptor file 'apxtest.proto' imports 'google/protobuf/timestamp.proto', which is not among the 7 loaded file(s)"
    )
    #expect(error?.hint?.contains("--include_imports") == true)
  }

  @Test func aReusedFieldNumberNamesBothFields() throws {
    var file = Google_Protobuf_FileDescriptorProto()
    file.name = "dup.proto"
    file.package = "dup"
    var message = Google_Protobuf_DescriptorProto()
    message.name = "M"
    for (name, number) in [("zeta", 2), ("alpha", 1), ("beta", 2)] {
      var field = Google_Protobuf_FieldDescriptorProto()
      field.name = name
      field.number = Int32(number)
      field.type = .string
      field.label = .optional
      message.field.append(field)
    }
    file.messageType = [message]
    let error = #expect(throws: ProtobufError.self) { try DescriptorPool(files: [file]) }
    #expect(error?.kind == .invalidSchema)
    #expect(error?.message == "fields 'dup.M.beta' and 'dup.M.zeta' both use number 2")
  }

  @Test func duplicateFilesFromReflectionAreMerged() throws {
    let files = try Self.reflectionFiles()
    let pool = try DescriptorPool(serializedFiles: files.map(\.bytes) + files.map(\.bytes))
    #expect(pool.fileNames.count == files.count)
  }

  @Test func garbageProtosetIsAnError() {
    let error = #expect(throws: ProtobufError.self) { try DescriptorPool(protoset: [0x0a, 0xff, 0xff]) }
    #expect(error?.kind == .invalidSchema)
    // SwiftProtobuf's own error is kept, not only its text.
    #expect(error?.underlying != nil)
  }
}
