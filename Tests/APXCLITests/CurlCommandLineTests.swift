import APXCore
import APXRuntime
import Testing

@testable import apx

/// The words of `apx call --curl` lines that the end-to-end tests (CallPreviewTests) cannot
/// reach through apx itself: URLs curl would read as globs or normalise, HEAD, binary bodies.
@Suite("curl command lines")
struct CurlCommandLineTests {
  static func words(_ method: String, _ url: String, body: RequestBody = .none) throws -> [String] {
    try CurlCommandLine.words(
      HTTPRequestPreview(kind: .rest, plan: HTTPRequestPlan(method: method, url: url, body: body)), masked: true,
      global: try GlobalOptions.parse([]))
  }

  @Test func everyValueSurvivesTheShell() {
    #expect(ShellWords.quote("plain-word_1.2/x:y@z%+,=") == "plain-word_1.2/x:y@z%+,=")
    #expect(ShellWords.quote("it's") == #"'it'\''s'"#)
    #expect(ShellWords.quote("") == "''")
    #expect(ShellWords.quote("~/x") == "'~/x'")
    #expect(ShellWords.quote("$HOME `x` \"q\" \\ \n;|&*?!") == "'$HOME `x` \"q\" \\ \n;|&*?!'")
  }

  @Test func globsAndDotSegmentsAreSentAsWritten() throws {
    #expect(try Self.words("GET", "http://h/a?y=[1]{2}") == ["curl", "--globoff", "http://h/a?y=[1]{2}"])
    #expect(try Self.words("GET", "http://h/a/../b") == ["curl", "--path-as-is", "http://h/a/../b"])
  }

  @Test func theMethodIsNamedOnlyWhenCurlWouldPickAnother() throws {
    #expect(try Self.words("HEAD", "http://h/") == ["curl", "--head", "http://h/"])
    #expect(try Self.words("DELETE", "http://h/") == ["curl", "-X", "DELETE", "http://h/"])
    let body = RequestBody.bytes(Array("{}".utf8), contentType: "application/json")
    #expect(try Self.words("POST", "http://h/", body: body) == ["curl", "--data-binary", "{}", "http://h/"])
    #expect(
      try Self.words("GET", "http://h/", body: body) == ["curl", "-X", "GET", "--data-binary", "{}", "http://h/"])
  }

  @Test func aTypedMultipartFieldIsAQuotedFormValueWithItsType() throws {
    let body = RequestBody.multipart(
      [
        .field(name: "meta", value: #"{"a":"x;y\"}"#, contentType: "application/json"),
        .field(name: "note", value: "@not-a-file"),
      ], boundary: "B")
    #expect(
      try Self.words("POST", "http://h/", body: body) == [
        "curl", "-F", #"meta="{\"a\":\"x;y\\\"}";type=application/json"#, "--form-string", "note=@not-a-file",
        "http://h/",
      ])
  }

  @Test func certificateProxyAndHTTPVersionFlagsBecomeCurlFlags() throws {
    let global = try GlobalOptions.parse([
      "--cert", "c.pem", "--key", "k.pem", "--proxy", "http://u:pw-secret@p:3128", "--noproxy", "a.example",
      "--http1.1",
    ])
    let preview = HTTPRequestPreview(kind: .rest, plan: HTTPRequestPlan(method: "GET", url: "https://h/"))
    let masked = try CurlCommandLine.words(preview, masked: true, global: global)
    #expect(
      masked == [
        "curl", "--cert", "c.pem", "--key", "k.pem", "--proxy", "http://u:***@p:3128", "--noproxy", "a.example",
        "--http1.1", "https://h/",
      ])
    let shown = try CurlCommandLine.words(preview, masked: false, global: global)
    #expect(shown.contains("http://u:pw-secret@p:3128"))
  }

  @Test func aBinaryBodyIsAUsageError() {
    #expect(throws: APXError.self) {
      try Self.words("POST", "http://h/", body: .bytes([0x00, 0xFF], contentType: "application/octet-stream"))
    }
  }

  @Test func grpcurlNamesProtoFilesRelativeToAnImportPath() {
    #expect(GRPCurlCommandLine.schemaFlags(.reflection) == [])
    #expect(GRPCurlCommandLine.schemaFlags(.protoset(path: "/p/x.protoset")) == ["-protoset", "/p/x.protoset"])
    #expect(
      GRPCurlCommandLine.schemaFlags(.protoFiles(files: ["/a/protos/x/y.proto"], importPaths: ["/a/protos", "/b"]))
        == ["-import-path", "/a/protos", "-import-path", "/b", "-proto", "x/y.proto"])
    // Without import paths apx searches each file's folder, and so does the line.
    #expect(
      GRPCurlCommandLine.schemaFlags(.protoFiles(files: ["/a/y.proto", "/a/z.proto"], importPaths: []))
        == ["-import-path", "/a", "-proto", "y.proto", "-proto", "z.proto"])
  }
}
