import APXCore
import Testing

/// Registry `accepts` (the other request bodies an endpoint takes) and the rule that example
/// data is not searched for schema references.
@Suite struct RegistryAcceptsTests {
  @Test func acceptedBodiesLoadAndWriteBackUnchanged() throws {
    let text =
      ##"{"api": "a", "schemas": {"Up": {"type": "object", "required": ["file"]}}, "endpoints": {"e": {"kind": "rest", "method": "POST", "path": "/up", "accepts": [{"content_type": "text/csv", "schema": {"type": "string"}}, {"content_type": "multipart/form-data", "schema": {"$ref": "#/schemas/Up"}}, {"content_type": "application/xml"}]}}}"##
    let api = try #require(RegistryFixture.load(text))
    let accepts = try #require(api.endpoint(named: "e")?.accepts)
    #expect(accepts.map(\.contentType) == ["text/csv", "multipart/form-data", "application/xml"])
    #expect(accepts[0].schema == .object([JSONMember("type", .string("string"))]))
    #expect(accepts[2].schema == nil)
    let written = RegistryWriter.text(api)
    let again = try RegistryLoader.load(Array(written.utf8), file: "again.json")
    #expect(again.endpoint(named: "e")?.accepts == accepts)
    #expect(AcceptedBody.mediaType(of: "Text/CSV; charset=utf-8") == "text/csv")
  }

  @Test(arguments: [
    (
      #""accepts": {"content_type": "text/csv"}"#,
      "expected a list of {\"content_type\": TYPE, \"schema\": {...}}, got object"
    ),
    (#""accepts": [{"schema": {}}]"#, "missing required key \"content_type\""),
    (#""accepts": [{"content_type": "csv"}]"#, "\"csv\" is not a media type"),
    (
      #""accepts": [{"content_type": "text/csv"}, {"content_type": "TEXT/CSV; charset=utf-8"}]"#,
      "\"TEXT/CSV; charset=utf-8\" is listed twice"
    ),
    (#""accepts": [{"content_type": "text/csv", "encoding": {}}]"#, "unknown key \"encoding\""),
    (
      #""accepts": [{"content_type": "text/csv", "schema": 1}]"#,
      "expected a JSON Schema (an object or a boolean), got number"
    ),
    (
      ##""accepts": [{"content_type": "text/csv", "schema": {"$ref": "#/schemas/Gone"}}]"##,
      "the reference #/schemas/Gone names no entry of \"schemas\""
    ),
  ])
  func aBadAcceptsIsRefused(member: String, message: String) {
    let text =
      ##"{"api": "a", "schemas": {"Up": {}}, "endpoints": {"e": {"kind": "rest", "method": "POST", "path": "/", "##
      + member + "}}}"
    let errors = RegistryFixture.errors(text).map(\.message)
    #expect(errors.contains(message), "\(errors)")
  }

  @Test func acceptsAppliesOnlyToRESTAndSSE() {
    let text =
      #"{"api": "a", "endpoints": {"e": {"kind": "jsonrpc", "rpc_method": "m", "accepts": [{"content_type": "text/csv"}]}}}"#
    let errors = RegistryFixture.errors(text).map(\.message)
    #expect(errors.contains("\"accepts\" applies only to kinds \"rest\" and \"sse\""), "\(errors)")
  }

  /// `$ref` keys inside `example`, `examples`, `default`, `const` and `enum` are an example's
  /// members, as descriptions write them; a property named `example` is still a schema.
  @Test func referencesInExampleDataAreData() throws {
    let data =
      ##"{"api": "a", "schemas": {"Doc": {"type": "object", "example": {"$ref": "#/x"}, "examples": [{"$ref": "y"}], "properties": {"link": {"type": "object", "default": {"$ref": "z"}, "enum": [{"$ref": "w"}]}}}}, "endpoints": {"e": {"kind": "rest", "path": "/"}}}"##
    #expect(RegistryFixture.load(data) != nil)
    let property =
      ##"{"api": "a", "schemas": {"Doc": {"type": "object", "properties": {"example": {"$ref": "#/schemas/Gone"}}}}, "endpoints": {"e": {"kind": "rest", "path": "/"}}}"##
    #expect(
      RegistryFixture.errors(property).map(\.message) == ["the reference #/schemas/Gone names no entry of \"schemas\""])
  }
}
