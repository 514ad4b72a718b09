public import APXCore

/// Turns an OpenAPI 3.0/3.1/3.2 or Swagger 2.0 document into a registry
/// `APIDefinition`, one endpoint per operation it can call, and a report of
/// what it skipped and why. Pure: a parsed document in, values out.
///
/// Each operation is mapped on its own: a broken reference, an impossible
/// parameter or an unsupported method skips that operation (named in the
/// report), never the import. See `OperationNaming` for endpoint names,
/// `SecurityMapping` for auth and `ServerMapping` for environments.
public struct OpenAPIImporter {
  /// Import settings.
  public struct Options: Sendable {
    /// The API name; nil: from the document's `info.title`.
    public var apiName: String?
    /// The http(s) URL the document was fetched from, for relative server URLs.
    public var sourceURL: String?

    public init(apiName: String? = nil, sourceURL: String? = nil) {
      self.apiName = apiName
      self.sourceURL = sourceURL
    }
  }

  static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]
  static let supportedMethods: Set<String> = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH"]

  let root: JSONValue
  let options: Options
  let resolver: ReferenceResolver
  let schemas: SchemaReader
  let swagger2: Bool

  /// Imports a parsed one-file document; throws only when it is not an OpenAPI/Swagger document at all.
  public static func importDocument(_ root: JSONValue, options: Options = Options()) throws(APXError) -> ImportReport {
    try importDescription(DescriptionSet(root: root, location: .file("/")), options: options)
  }

  /// Imports a description with the files its references reach (`DescriptionSet.load`).
  public static func importDescription(_ set: DescriptionSet, options: Options = Options()) throws(APXError)
    -> ImportReport
  {
    let root = set.root
    guard case .object = root else {
      throw APXError(.invalidDefinition, "the document is \(root.typeName), not an OpenAPI object")
    }
    let format: String
    let swagger2: Bool
    if let v = root["swagger"], (v.stringValue ?? v.compactJSON).hasPrefix("2") {
      format = "Swagger 2.0"
      swagger2 = true
    } else if let v = root["openapi"]?.stringValue, v.hasPrefix("3.") {
      format = "OpenAPI \(v)"
      swagger2 = false
    } else {
      throw APXError(
        .invalidDefinition, "not an OpenAPI or Swagger document (no \"openapi\": \"3.x\" or \"swagger\": \"2.0\")",
        hint: "apx imports OpenAPI 3.0, 3.1, 3.2 and Swagger 2.0 descriptions")
    }
    let importer = OpenAPIImporter(set: set, options: options, swagger2: swagger2)
    return try importer.run(format: format)
  }

  init(set: DescriptionSet, options: Options, swagger2: Bool) {
    self.root = set.root
    self.options = options
    self.resolver = ReferenceResolver(root: set.root, documents: set.documents)
    self.schemas = SchemaReader(resolver: resolver)
    self.swagger2 = swagger2
  }

  /// The API name from `info.title`: lower-case words joined by `-`.
  ///
  /// A title is prose with brand names in it, so it splits at spaces and punctuation only, never
  /// inside a word as operationIds do, and apostrophes go: "GitHub's official OpenAPI spec" is
  /// githubs-official-openapi-spec, not git-hub-s-official-open-api-spec.
  static func apiName(fromTitle title: String?) -> String {
    let words = (title ?? "").filter { $0 != "'" && $0 != "\u{2019}" }.split {
      !($0.isASCII && ($0.isLetter || $0.isNumber))
    }
    var name = ""
    // At most 40 characters, cut after a whole word (a first word longer than that is cut).
    for word in words.map({ $0.lowercased() }) {
      let longer = name.isEmpty ? word : name + "-" + word
      if longer.count > 40 { return name.isEmpty ? String(word.prefix(40)) : name }
      name = longer
    }
    return name.isEmpty ? "api" : name
  }

  func run(format: String) throws(APXError) -> ImportReport {
    let title = root["info"]?["title"]?.stringValue
    let name = options.apiName ?? Self.apiName(fromTitle: title)
    guard !name.isEmpty,
      name.unicodeScalars.allSatisfy({
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
      })
    else {
      throw APXError(
        .usage, "the API name \"\(name)\" may hold only letters, digits, '-' and '_'", hint: "pass --api NAME")
    }
    var api = APIDefinition(name: name, sourceFile: "")
    api.schemaReference = "./registry.schema.json"
    api.title = title.flatMap { Text.summary($0) }
    api.description = Text.summary(root["info"]?["description"]?.stringValue)
    var report = ImportReport(api: api, format: format)

    let servers = ServerMapping(sourceURL: options.sourceURL, prefix: SecurityMapping.envName(name))
    api.environments =
      swagger2
      ? servers.environments(swagger2: root, report: &report) : servers.environments(openAPI3: root, report: &report)
    api.defaultEnvironment = api.environments.first?.name

    let schemeMembers =
      (swagger2 ? root["securityDefinitions"] : root["components"]?["securitySchemes"])?.objectMembers ?? []
    let security = SecurityMapping(schemes: schemeMembers, resolver: resolver, apiName: name)
    var notes: [String] = []
    let rootRequirements = root["security"]?.arrayValue
    if let rootRequirements, let mapped = security.auth(for: rootRequirements, notes: &notes), mapped.auth != .none {
      api.auth = mapped.auth
      for v in mapped.variables { report.needs(v) }
    }

    var names = OperationNaming.Registry()
    var inliner = SchemaInliner(resolver: resolver, swagger2: swagger2)
    for pathMember in root["paths"]?.objectMembers ?? [] {
      let path = pathMember.key
      let rawItem = pathMember.value
      let item: JSONValue
      do throws(ReferenceResolver.Failure) {
        item = try resolver.resolve(rawItem)
      } catch {
        report.operationCount += 1
        report.skipped.append(ImportSkip(item: "path \(path)", reason: error.message))
        continue
      }
      var operations: [(method: String, op: JSONValue)] = []
      for m in item.objectMembers ?? [] where Self.methods.contains(m.key) {
        operations.append((m.key.uppercased(), m.value))
      }
      for m in item["additionalOperations"]?.objectMembers ?? [] { operations.append((m.key.uppercased(), m.value)) }
      for (method, rawOp) in operations {
        report.operationCount += 1
        // An operation written as a `$ref` into another file (common in split descriptions).
        let op: JSONValue
        do throws(ReferenceResolver.Failure) {
          op = try resolver.resolve(rawOp)
        } catch {
          report.skipped.append(ImportSkip(item: "\(method) \(path)", reason: error.message))
          continue
        }
        let operationId = op["operationId"]?.stringValue
        let label = "\(method) \(path)" + (operationId.map { " (\($0))" } ?? "")
        guard Self.supportedMethods.contains(method) else {
          report.skipped.append(ImportSkip(item: label, reason: "apx does not send \(method) requests"))
          continue
        }
        do throws(OperationSkip) {
          var endpoint = try operation(method: method, path: path, op: op, item: item, inliner: &inliner)
          endpoint.name = names.claim(OperationNaming.name(operationId: operationId, method: method, path: path))
          var opNotes: [String] = []
          if let requirements = op["security"]?.arrayValue {
            if let mapped = security.auth(for: requirements, notes: &opNotes) {
              if mapped.auth != api.auth ?? .none {
                endpoint.auth = mapped.auth
                for v in mapped.variables { report.needs(v) }
              }
            } else {
              opNotes.append("no usable auth for \(label); the endpoint is called without it")
              if api.auth != nil { endpoint.auth = AuthConfig.none }
            }
          }
          for n in opNotes { report.note(n) }
          report.api.endpoints.append(endpoint)
        } catch {
          report.skipped.append(ImportSkip(item: label, reason: error.reason))
        }
        if let callbacks = op["callbacks"]?.objectMembers, !callbacks.isEmpty {
          report.skipped.append(
            ImportSkip(
              item: "callbacks of \(label): \(callbacks.map(\.key).joined(separator: ", "))",
              reason: "callbacks are requests the API sends to you, not calls apx makes"))
        }
      }
    }
    for hook in root["webhooks"]?.objectMembers ?? [] {
      report.skipped.append(
        ImportSkip(
          item: "webhook \(hook.key)", reason: "webhooks are requests the API sends to you, not calls apx makes"))
    }
    for n in notes + schemas.notes.all { report.note(n) }
    if schemeMembers.isEmpty {
      report.note("the description declares no security schemes; add an \"auth\" block if the API needs credentials")
    }
    api.endpoints = report.api.endpoints
    api.schemas = inliner.namedSchemas()
    report.api = api
    return report
  }

  /// One operation as an endpoint (named later).
  func operation(
    method: String, path: String, op: JSONValue, item: JSONValue, inliner: inout SchemaInliner
  ) throws(OperationSkip) -> Endpoint {
    guard case .object = op else { throw OperationSkip("the operation is \(op.typeName), not an object") }
    do throws(APXError) {
      _ = try PathTemplate(path)
    } catch {
      throw OperationSkip(error.message)
    }
    var endpoint = Endpoint(name: "", options: .rest(HTTPRoute(method: method, path: path)))
    var description = Text.summary(op["summary"]?.stringValue) ?? Text.summary(op["description"]?.stringValue)
    if op["deprecated"]?.boolValue == true { description = "Deprecated. " + (description ?? "") }
    endpoint.description = description?.isEmpty == false ? description : nil

    // Path-level parameters, overridden by operation-level ones with the same name and location.
    var merged: [(key: String, value: JSONValue)] = []
    for raw in (item["parameters"]?.arrayValue ?? []) + (op["parameters"]?.arrayValue ?? []) {
      let p: JSONValue
      do throws(ReferenceResolver.Failure) {
        p = try resolver.resolve(raw)
      } catch {
        throw OperationSkip("a parameter cannot be read: \(error.message)")
      }
      let key = (p["in"]?.stringValue ?? "") + ":" + (p["name"]?.stringValue ?? "")
      if let i = merged.firstIndex(where: { $0.key == key }) { merged[i].value = p } else { merged.append((key, p)) }
    }
    let mapping = ParameterMapping(schemas: schemas, swagger2: swagger2)
    var params: [Param] = []
    var bodyParam: JSONValue?
    var formParams: [JSONValue] = []
    for (_, p) in merged {
      let location = p["in"]?.stringValue ?? ""
      if swagger2, location == "body" {
        bodyParam = p
        continue
      }
      if swagger2, location == "formData" {
        formParams.append(p)
        continue
      }
      if let param = try mapping.param(p, location: location) { params.append(param) }
    }

    let bodies = BodyMapping(schemas: schemas)
    var body = BodyMapping.Result()
    // The schema of a JSON body, for `apx mock` to check requests against.
    var bodySchema: JSONValue?
    if swagger2 {
      let consumes = (op["consumes"] ?? root["consumes"])?.arrayValue?.compactMap(\.stringValue) ?? []
      body = try bodies.swagger2(bodyParam: bodyParam, formParams: formParams, consumes: consumes)
      if body.encoding == nil { bodySchema = bodyParam?["schema"] }
    } else if let raw = op["requestBody"] {
      let requestBody: JSONValue
      do throws(ReferenceResolver.Failure) {
        requestBody = try resolver.resolve(raw)
      } catch {
        throw OperationSkip("its request body cannot be read: \(error.message)")
      }
      body = try bodies.requestBody(requestBody)
      if body.encoding == nil, let content = requestBody["content"]?.objectMembers,
        let type = BodyMapping.choose(content.map(\.key)), BodyMapping.isJSON(type)
      {
        bodySchema = content.first { $0.key == type }?.value["schema"]
      }
    }
    let taken = Set(params.map(\.name))
    for var p in body.params {
      if taken.contains(p.name) {
        // A body field named like a path or query parameter: `body.NAME` on the command line.
        p.wireName = p.name
        p.name = "body." + p.name
      }
      params.append(p)
    }
    endpoint.params = try uniqueNames(params, path: path)
    endpoint.bodyEncoding = body.encoding
    endpoint.bodyExample = body.example
    endpoint.bodySchema = bodySchema.map { inliner.copy($0) }
    var acceptedTypes = Set<String>()
    var accepts: [AcceptedBody] = []
    for other in body.others {
      let accepted = AcceptedBody(contentType: other.type, schema: other.schema.map { inliner.copy($0) })
      // A wildcard (`*/*`, `image/*`) names no type a request is sent with.
      guard !accepted.mediaType.contains("*"), acceptedTypes.insert(accepted.mediaType).inserted else { continue }
      accepts.append(accepted)
    }
    endpoint.options = .rest(endpoint.options.route, accepts: accepts)
    let produces = (op["produces"] ?? root["produces"])?.arrayValue?.compactMap(\.stringValue) ?? []
    endpoint.responses = ResponseMapping(resolver: resolver, swagger2: swagger2)
      .responses(of: op, produces: produces, inliner: &inliner)
    if let type = body.contentType { endpoint.headers.append(HeaderField("Content-Type", type)) }
    switch streaming(op) {
    case .events:
      endpoint.options = .sse(endpoint.options.route, SSEOptions(), accepts: endpoint.accepts)
    case .eventsOrOther(let types):
      // A REST call reads the answer by its Content-Type (events as SSE); the Accept header
      // lists what the document says the operation answers, as strict SSE servers require.
      if !types.isEmpty { endpoint.headers.append(HeaderField("Accept", types.joined(separator: ", "))) }
      endpoint.description =
        (endpoint.description.map { $0 + " " } ?? "")
        + "(Answers \(types.joined(separator: " or ")) depending on the request; apx reads the answer by its Content-Type, events as SSE.)"
    case .none:
      break
    }
    return endpoint
  }

  /// Param names must be unique and free of the characters the `name=value` syntax uses.
  func uniqueNames(_ params: [Param], path: String) throws(OperationSkip) -> [Param] {
    var out: [Param] = []
    var used = Set<String>()
    for var p in params {
      if p.location != .path {
        let clean = String(p.name.map { "=:@ \t".contains($0) ? "_" : $0 })
        if clean != p.name {
          p.wireName = p.wireName ?? p.name
          p.name = clean
        }
      }
      if used.contains(p.name) {
        if p.location == .path { throw OperationSkip("path parameter \"\(p.name)\" is declared twice") }
        p.wireName = p.wireName ?? p.name
        var n = p.location.rawValue + "." + p.name
        var i = 2
        while used.contains(n) {
          n = p.location.rawValue + "." + p.name + "-\(i)"
          i += 1
        }
        p.name = n
      }
      used.insert(p.name)
      out.append(p)
    }
    let placeholders = (try? PathTemplate(path).placeholders) ?? []
    for name in placeholders where !out.contains(where: { $0.name == name && $0.location == .path }) {
      // A path placeholder the document forgot to declare: still callable as a required string.
      guard !used.contains(name) else {
        throw OperationSkip("the path uses {\(name)} but declares no path parameter \"\(name)\"")
      }
      out.insert(
        Param(name: name, location: .path, required: true), at: out.firstIndex { $0.location != .path } ?? out.count)
    }
    if let stray = out.first(where: { $0.location == .path && !placeholders.contains($0.name) }) {
      throw OperationSkip("path parameter \"\(stray.name)\" does not appear in the path")
    }
    return out
  }

  /// How the success responses (2xx, else `default`) answer: only `text/event-stream`, or events among other types.
  /// `eventsOrOther` carries the success media types in document order (those a header can carry).
  enum Streaming: Equatable {
    case none, events
    case eventsOrOther([String])
  }

  /// `type/subtype` in RFC 9110's token characters (wildcards included), no parameters: safe in an Accept header.
  static func isMediaRange(_ text: String) -> Bool {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    let symbols = "0123456789!#$%&'*+-.^_`|~".unicodeScalars
    return parts.count == 2
      && parts.allSatisfy { part in
        !part.isEmpty
          && part.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || symbols.contains($0)) }
      }
  }

  func streaming(_ op: JSONValue) -> Streaming {
    let responses = op["responses"]?.objectMembers ?? []
    let success = responses.filter { $0.key.hasPrefix("2") }
    var types: [String] = []
    for r in success.isEmpty ? responses.filter({ $0.key == "default" }) : success {
      if swagger2 {
        types += (op["produces"] ?? root["produces"])?.arrayValue?.compactMap(\.stringValue) ?? []
      } else {
        types += (try? resolver.resolve(r.value))?["content"]?.objectMembers?.map(\.key) ?? []
      }
    }
    let events = types.filter { $0.lowercased().hasPrefix("text/event-stream") }
    if events.isEmpty { return .none }
    if events.count == types.count { return .events }
    var seen = Set<String>()
    let bare = types.map { String($0.prefix { $0 != ";" }).filter { $0 != " " && $0 != "\t" } }
    let listed = bare.filter { Self.isMediaRange($0) && seen.insert($0.lowercased()).inserted }
    return .eventsOrOther(listed)
  }
}

extension String {
  var trimmingDashes: String {
    var s = Substring(self)
    while s.first == "-" { s = s.dropFirst() }
    while s.last == "-" { s = s.dropLast() }
    return String(s)
  }
}
