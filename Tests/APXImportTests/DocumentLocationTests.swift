import APXCore
import APXImport
import Testing

/// Where a `$ref` into another file points, and which `$ref`s of a file are references at all.
@Suite struct DocumentLocationTests {
  @Test func fileReferencesResolveAgainstTheReferringFilesFolder() {
    let here = DocumentLocation.file("/api/paths/pets.yaml")
    #expect(here.resolving("../common.yaml#/parameters/limit") == .file("/api/common.yaml"))
    #expect(here.resolving("./models/Pet.yaml") == .file("/api/paths/models/Pet.yaml"))
    #expect(here.resolving("My%20Pet.yaml") == .file("/api/paths/My Pet.yaml"))
    #expect(here.resolving("/abs/x.yaml") == .file("/abs/x.yaml"))
    #expect(here.resolving("file:///etc/x.yaml") == .file("/etc/x.yaml"))
    #expect(here.resolving("#/components/schemas/Pet") == nil)
    #expect(here.resolving("urn:example:pet") == nil)
    #expect(DocumentLocation.file("spec/a.yaml", in: "/work/./x") == .file("/work/x/spec/a.yaml"))
  }

  @Test func urlReferencesFollowRFC3986() {
    let base = DocumentLocation.url("https://example.com/specs/v1/root.yaml")
    #expect(base.resolving("pet.yaml") == .url("https://example.com/specs/v1/pet.yaml"))
    #expect(base.resolving("../common/e.yaml#/E") == .url("https://example.com/specs/common/e.yaml"))
    #expect(base.resolving("/top.yaml") == .url("https://example.com/top.yaml"))
    #expect(base.resolving("//cdn.example.org/x.yaml") == .url("https://cdn.example.org/x.yaml"))
    #expect(base.resolving("http://other.test/y.json") == .url("http://other.test/y.json"))
  }

  @Test func exampleDataAndExtensionsAreNotSearchedForReferences() throws {
    let doc = try JSONParser.parse(
      """
      {"properties": {"example": {"$ref": "models/a.yaml"}},
       "example": {"$ref": "not/a/file.yaml"}, "x-samples": [{"$ref": "samples/s.yaml"}],
       "examples": {"one": {"$ref": "examples/one.yaml"}, "two": {"value": {"$ref": "data.yaml"}}},
       "items": {"$ref": "#/local"}}
      """)
    var c = ReferenceCanonicalizer(location: .file("/api/other.yaml"), root: .file("/api/root.yaml"))
    let out = c.canonicalize(doc)
    #expect(c.external.map(\.text) == ["models/a.yaml", "examples/one.yaml"])
    // A local reference of a file other than the root names that file.
    #expect(out["items"]?["$ref"]?.stringValue == "/api/other.yaml#/local")
    #expect(out["example"]?["$ref"]?.stringValue == "not/a/file.yaml")
  }
}

/// A parameter's constraints in a registry file.
@Suite struct ParamConstraintRegistryTests {
  func load(_ param: String) throws -> APIDefinition {
    let text = """
      {"api": "t", "environments": {"dev": {"base_url": "http://127.0.0.1:1"}},
       "endpoints": {"get": {"kind": "rest", "method": "GET", "path": "/", "params": {"p": \(param)}}}}
      """
    return try RegistryLoader.load(Array(text.utf8), file: "t.json")
  }

  @Test func constraintsLoadAndAreChecked() throws {
    let api = try load(#"{"type": "string", "min_length": 2, "pattern": "^a[0-9]+$"}"#)
    let c = try #require(api.endpoints.first?.params.first?.constraints)
    #expect(c.problem(.string("a1")) == nil)
    #expect(c.problem(.string("a")) == "must be at least 2 characters long")
    #expect(c.problem(.string("b12")) == "must match the pattern ^a[0-9]+$")
    let n = try load(#"{"type": "integer", "minimum": 1, "maximum": 10}"#)
    #expect(n.endpoints.first?.params.first?.constraints.problem(.int(11)) == "must be at most 10")
  }

  @Test(arguments: [
    #"{"type": "string", "minimum": 1}"#, #"{"type": "string", "min_length": 1}"#,
    #"{"type": "integer", "pattern": "a"}"#,
    #"{"pattern": "(?=a)b"}"#, #"{"type": "integer", "minimum": 5, "maximum": 1}"#,
  ])
  func wrongConstraintsAreRefused(_ param: String) throws {
    // The same file with a valid parameter loads, so the refusal is the constraint's.
    _ = try load(#"{"type": "string"}"#)
    if param.contains("min_length") {
      _ = try load(param)
    } else {
      #expect(throws: APXErrors.self) { try load(param) }
    }
  }
}
