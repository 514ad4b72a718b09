import APXCore
import Testing

/// Form and multipart body parameters with OpenAPI's `encoding` (`style`, `explode`,
/// `contentType`), as `apx import` writes them from Stripe's description: the exact bytes.
@Suite struct FormEncodingTests {
  let f: RequestFixture

  init() throws {
    f = try RequestFixture(
      endpoints: """
        "customers.create": {"kind": "rest", "method": "POST", "path": "/v1/customers", "body": "form",
          "params": {"address": {"in": "form", "type": "json", "style": "deepObject", "explode": true},
                     "expand": {"in": "form", "type": "array", "style": "deepObject", "explode": true},
                     "metadata": {"in": "form", "type": "json", "style": "deepObject", "explode": true},
                     "name": {"in": "form"},
                     "ids": {"in": "form", "type": "array", "explode": false},
                     "tags": {"in": "form", "type": "array", "style": "form", "explode": true},
                     "pair": {"in": "form", "type": "json", "style": "form"},
                     "pipes": {"in": "form", "type": "array", "style": "pipeDelimited"},
                     "legacy": {"in": "form", "type": "json"}}},
        "upload": {"kind": "rest", "method": "POST", "path": "/upload", "body": "multipart",
          "params": {"meta": {"in": "multipart", "type": "json", "content_type": "application/json"},
                     "note": {"in": "multipart", "content_type": "text/markdown"},
                     "opts": {"in": "multipart", "type": "json", "style": "deepObject"},
                     "plain": {"in": "multipart", "type": "json"}}}
        """)
  }

  func form(_ values: [(String, BoundValue)]) throws -> String? {
    planBodyText(try f.build("customers.create", values))
  }

  @Test func deepObjectWritesBracketsAsStripeReadsThem() throws {
    #expect(
      try form([("metadata", try bindJSON(#"{"foo":"bar","n":1}"#)), ("expand", bindText("tax"))])
        == "expand%5B%5D=tax&metadata%5Bfoo%5D=bar&metadata%5Bn%5D=1")
    #expect(try form([("expand", try bindJSON(#"["tax","sources"]"#))]) == "expand%5B%5D=tax&expand%5B%5D=sources")
    #expect(
      try form([("address", try bindJSON(#"{"city":"Köln","lines":{"a":"x y"}}"#))])
        == "address%5Bcity%5D=K%C3%B6ln&address%5Blines%5D%5Ba%5D=x%20y")
    // Arrays of objects are numbered (Stripe's items[0][price]); null is an empty value ("unset").
    #expect(
      try form([("metadata", try bindJSON(#"{"items":[{"price":"p1"},{"price":"p2"}],"old":null}"#))])
        == "metadata%5Bitems%5D%5B0%5D%5Bprice%5D=p1&metadata%5Bitems%5D%5B1%5D%5Bprice%5D=p2&metadata%5Bold%5D=")
    #expect(try form([("metadata", try bindJSON("null"))]) == "metadata=")
    #expect(try form([("metadata", try bindJSON("{}"))]) == "")
  }

  @Test func formSpaceAndPipeStylesAreAQuerysStyles() throws {
    #expect(try form([("ids", try bindJSON("[1,2]"))]) == "ids=1%2C2")
    #expect(try form([("tags", try bindJSON(#"["a","b"]"#))]) == "tags=a&tags=b")
    #expect(try form([("pair", try bindJSON(#"{"r":1,"g":2}"#))]) == "r=1&g=2", "form + explode: members as fields")
    #expect(try form([("pipes", try bindJSON(#"["a","b"]"#))]) == "pipes=a%7Cb")
  }

  @Test func withoutAStyleAnObjectIsJSONTextAndAnArrayRepeats() throws {
    #expect(try form([("legacy", try bindJSON(#"{"a":1}"#))]) == "legacy=%7B%22a%22%3A1%7D")
    #expect(try form([("legacy", try bindJSON("[1,2]"))]) == "legacy=1&legacy=2")
  }

  @Test func bracketFieldsFromItemsAreSentAsTyped() throws {
    var endpoint = try #require(f.api.endpoint(named: "customers.create"))
    let items = try ["metadata[foo]=bar", "expand[]=tax", "expand[]=email", "name=Ann"].map {
      text throws(APXError) in try RequestItem(parsing: text)
    }
    let applied = try RequestItems.apply(items, to: &endpoint, declareBody: false)
    let values = applied.arguments.map { argument -> (name: String, value: BoundValue) in
      guard case .text(let s) = argument.value else { return (argument.name, .json(.null)) }
      return (argument.name, .json(.string(s)))
    }
    let plan = try RequestBuilder(api: f.api, endpoint: endpoint, baseURL: "http://h").build(
      .init(values: values, boundary: "B"))
    #expect(planBodyText(plan) == "name=Ann&metadata%5Bfoo%5D=bar&expand%5B%5D=tax&expand%5B%5D=email")
  }

  @Test func multipartPartsTakeTheirContentTypeOrTheirStyle() throws {
    let plan = try f.build(
      "upload",
      [
        ("meta", try bindJSON(#"{"a":[1]}"#)), ("note", bindText("# hi")), ("opts", try bindJSON(#"{"x":"1"}"#)),
        ("plain", try bindJSON(#"{"b":2}"#)),
      ])
    #expect(
      plan.body
        == .multipart(
          [
            .field(name: "meta", value: #"{"a":[1]}"#, contentType: "application/json"),
            .field(name: "note", value: "# hi", contentType: "text/markdown"),
            .field(name: "opts[x]", value: "1"), .field(name: "plain", value: #"{"b":2}"#),
          ], boundary: "BOUNDARY"))
    let part = MultipartPart.field(name: "meta", value: "{}", contentType: "application/json")
    #expect(
      part.headerBlock == "Content-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n")
  }

  @Test func stylesAreRefusedWhereABodyIsJSON() throws {
    let text = """
      {"api": "t", "endpoints": {"e": {"kind": "rest", "method": "POST", "path": "/",
        "params": {"a": {"in": "body", "style": "deepObject"}}}}}
      """
    let errors = try #require(throws: APXErrors.self) { try RegistryLoader.load(Array(text.utf8), file: "t.json") }
    #expect(errors.errors.first?.message == "style \"deepObject\" does not apply to a body parameter")
  }
}
