import APXCore

/// Checks a request against its endpoint's parameters: required path, query, header and
/// cookie values, JSON body fields and form fields (URL-encoded or multipart; files by
/// presence) are there, and each has its declared type and allowed values. The first problem
/// found is reported, naming the parameter. A request whose Content-Type is one of the
/// endpoint's `accepts` types has its body judged by that entry instead of the body params.
struct RequestValidator {
  let endpoint: Endpoint
  let book: SchemaBook

  func problem(_ request: MockRequest, pathValues: [String: String]) -> SchemaValidator.Problem? {
    if let accepted = accepted(request) {
      return problem(request, accepted) ?? paramProblem(request, pathValues: pathValues, body: nil, form: nil)
    }
    let body = request.jsonBody
    if let schema = endpoint.bodySchema, !request.body.isEmpty {
      guard let body else { return .init(field: "body", message: "is not JSON") }
      if let problem = SchemaValidator.problem(body, schema, book, at: "", direction: .request) {
        return problem.field.isEmpty ? .init(field: "body", message: problem.message) : problem
      }
    }
    let bodyParams = endpoint.params.filter { $0.location == .body && $0.type != .file }
    if !bodyParams.isEmpty, !request.body.isEmpty {
      guard case .object = body else { return .init(field: "body", message: "must be a JSON object") }
    }
    let formParams = endpoint.params.filter { $0.location == .form || $0.location == .multipart }
    var form = FormFields(fields: [])
    if !formParams.isEmpty, !request.body.isEmpty {
      let expected = formParams.contains { $0.location == .multipart } ? "multipart/form-data" : "a form"
      do {
        guard let read = try FormFields.read(request) else {
          return .init(field: "body", message: "must be \(expected) (Content-Type)")
        }
        form = read
      } catch {
        return .init(field: "body", message: "is not valid: \(error.message)")
      }
    }
    return paramProblem(request, pathValues: pathValues, body: body, form: form)
  }

  /// The `accepts` entry `request`'s Content-Type names, if any.
  private func accepted(_ request: MockRequest) -> AcceptedBody? {
    guard !endpoint.accepts.isEmpty, let type = request.header("content-type") else { return nil }
    let media = AcceptedBody.mediaType(of: type)
    return endpoint.accepts.first { $0.mediaType == media }
  }

  /// A body of an `accepts` type against its entry: JSON against the schema, a form's or
  /// multipart body's fields against the schema's `required` members; other types as they come.
  private func problem(_ request: MockRequest, _ accepted: AcceptedBody) -> SchemaValidator.Problem? {
    guard let schema = accepted.schema else { return nil }
    let media = accepted.mediaType
    if media == "application/json" || media.hasSuffix("+json") {
      guard !request.body.isEmpty else { return nil }
      guard let body = request.jsonBody else { return .init(field: "body", message: "is not JSON") }
      guard let problem = SchemaValidator.problem(body, schema, book, at: "", direction: .request) else { return nil }
      return problem.field.isEmpty ? .init(field: "body", message: problem.message) : problem
    }
    var form = FormFields(fields: [])
    do {
      if !request.body.isEmpty {
        guard let read = try FormFields.read(request) else { return nil }
        form = read
      }
    } catch {
      return .init(field: "body", message: "is not valid: \(error.message)")
    }
    let required = book.resolve(schema)["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
    for name in required where !form.contains(name) { return .init(field: name, message: "is required") }
    return nil
  }

  /// The endpoint's parameters against the request; `form` nil leaves body, form and multipart
  /// parameters out (an `accepts` body was judged by its entry).
  private func paramProblem(_ request: MockRequest, pathValues: [String: String], body: JSONValue?, form: FormFields?)
    -> SchemaValidator.Problem?
  {
    let judgesBody = form != nil
    for param in endpoint.params {
      let name = param.sentName
      let texts: [String]
      switch param.location {
      case .path: texts = pathValues[name].map { [$0] } ?? []
      case .query: texts = request.queryValues(name)
      case .header: texts = request.header(name.lowercased()).map { [$0] } ?? []
      case .cookie: texts = request.cookie(name).map { [$0] } ?? []
      case .body:
        guard judgesBody else { continue }
        guard param.type != .file, let value = body?[name] else {
          if param.required, param.type != .file { return .init(field: name, message: "is required") }
          continue
        }
        if let problem = check(value, param) { return problem }
        continue
      case .form, .multipart:
        guard let form else { continue }
        guard form.contains(name) else {
          if param.required, param.defaultValue == nil { return .init(field: name, message: "is required") }
          continue
        }
        if param.type == .file { continue }
        texts = form.values(name)
        if texts.isEmpty { continue }  // a file where text was declared: nothing to read as text
      case .message: continue
      }
      guard let first = texts.first else {
        if param.required, param.defaultValue == nil { return .init(field: name, message: "is required") }
        continue
      }
      if let problem = check(text: first, all: texts, param) { return problem }
    }
    return nil
  }

  /// A JSON body field against its declared type and allowed values.
  private func check(_ value: JSONValue, _ param: Param) -> SchemaValidator.Problem? {
    let type: String? =
      switch param.type {
      case .string: "string"
      case .integer: "integer"
      case .number: "number"
      case .boolean: "boolean"
      case .array: "array"
      case .json, .file: nil
      }
    if let type, value != .null, !SchemaValidator.matches(value, type: type) {
      return .init(field: param.sentName, message: "must be \(type), got \(value.typeName)")
    }
    if let allowed = param.allowed, !allowed.contains(value) {
      return .init(
        field: param.sentName, message: "must be one of \(allowed.map(\.compactJSON).joined(separator: ", "))")
    }
    if let problem = param.constraints.problem(value) { return .init(field: param.sentName, message: problem) }
    return nil
  }

  /// A path, query, header or cookie value (text) against its declared type and allowed values.
  private func check(text: String, all: [String], _ param: Param) -> SchemaValidator.Problem? {
    let name = param.sentName
    // A credential's value is never echoed back: answers reach logs and terminals.
    let got = Self.carriesCredential(param) ? "" : ", got \"\(text)\""
    switch param.type {
    case .integer where Int(text) == nil: return .init(field: name, message: "must be an integer\(got)")
    case .number where Double(text) == nil: return .init(field: name, message: "must be a number\(got)")
    case .boolean where text != "true" && text != "false":
      return .init(field: name, message: "must be true or false\(got)")
    default: break
    }
    if let allowed = param.allowed, param.type != .array {
      let matches = allowed.contains { value in
        switch value {
        case .string(let s): s == text
        case .number: value.doubleValue == Double(text)
        case .bool(let b): (b ? "true" : "false") == text
        default: false
        }
      }
      if !matches {
        return .init(
          field: name,
          message: "must be one of \(allowed.map { $0.stringValue ?? $0.compactJSON }.joined(separator: ", "))")
      }
    }
    let isNumber = param.type == .integer || param.type == .number
    if param.type != .array, let problem = param.constraints.problem(text: text, isNumber: isNumber) {
      return .init(field: name, message: problem)
    }
    return nil
  }

  /// Whether `param` carries a credential by the rule `-v` masks with: declared secret, or a
  /// name that credentials go by.
  static func carriesCredential(_ param: Param) -> Bool {
    param.secret || CredentialParams.isCredential(param.sentName)
      || (param.location == .header && CredentialHeaders.isCredential(param.sentName))
  }
}
