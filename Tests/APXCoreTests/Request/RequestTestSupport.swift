import APXCore
import Testing

/// Builds request plans from a small registry written as JSON.
struct RequestFixture {
  let api: APIDefinition

  /// `endpoints` is the body of the registry's "endpoints" object; `top` adds API-level members.
  init(top: String = "", endpoints: String) throws {
    let text = """
      {"api": "books", "headers": {"Accept": "application/json", "X-Client": "apx"},\(top.isEmpty ? "" : " " + top + ",")
       "endpoints": {\(endpoints)}}
      """
    do {
      api = try RegistryLoader.load(Array(text.utf8), file: "books.json")
    } catch {
      Issue.record("fixture registry does not load:\n\(error.description)")
      throw error
    }
  }

  /// Builds `endpoint` with text values (as `name=value` would give them).
  func build(
    _ endpoint: String, _ values: [(String, BoundValue)] = [], data: RequestBuilder.DataBody? = nil,
    headers: [HeaderField] = [], baseURL: String = "http://127.0.0.1:8080"
  ) throws(APXError) -> HTTPRequestPlan {
    guard let e = api.endpoint(named: endpoint) else {
      throw APXError(.internalFailure, "fixture has no endpoint \(endpoint)")
    }
    let input = RequestBuilder.Input(
      values: values.map { (name: $0.0, value: $0.1) }, data: data, headers: headers, boundary: "BOUNDARY")
    return try RequestBuilder(api: api, endpoint: e, baseURL: baseURL).build(input)
  }

  /// The error building `endpoint` throws; records an issue when it builds.
  func error(
    _ endpoint: String, _ values: [(String, BoundValue)] = [], data: RequestBuilder.DataBody? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) -> APXError? {
    do {
      let plan = try build(endpoint, values, data: data)
      Issue.record("expected an error, got a plan for \(plan.url)", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }
}

/// A text argument, as `name=value` binds it.
func bindText(_ s: String) -> BoundValue { .json(.string(s)) }

/// A JSON argument, as `name:=json` binds it.
func bindJSON(_ s: String) throws -> BoundValue { .json(try JSONParser.parse(s)) }

/// The body's bytes as text, or nil when it is not an in-memory body.
func planBodyText(_ plan: HTTPRequestPlan) -> String? {
  if case .bytes(let bytes, _) = plan.body { return String(decoding: bytes, as: UTF8.self) }
  return nil
}
