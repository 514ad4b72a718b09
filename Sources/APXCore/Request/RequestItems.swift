/// Turns request items into what a call sends: parameter arguments to bind and
/// extra headers. An ad-hoc endpoint declares a parameter for every item; a
/// registry endpoint keeps its own and only gains query parameters for
/// `name==value` items it does not declare as query parameters.
///
/// A nested key (`user[name]=Ann`) binds the parameter of its root (`user`), whose value
/// `NestedItems` builds once files are read, unless the registry declares a parameter of
/// that exact name (`page[size]`, as JSON:API documents do), which it then binds as it is.
/// In a form or multipart body the key is a field name instead, sent as typed
/// (`metadata[foo]=bar`): those bodies have no nesting, and their servers read brackets.
public struct RequestItems: Sendable {
  /// Arguments to bind, in item order.
  public var arguments: [ParamArgument] = []
  /// `Name:value` headers in item order (an empty value removes the header).
  public var headers: [HeaderField] = []

  /// Applies `items` to `endpoint`.
  ///
  /// - Parameter declareBody: declare body fields and file parts as parameters
  ///   (an ad-hoc endpoint); false leaves them to the registry's declarations.
  public static func apply(_ items: [RequestItem], to endpoint: inout Endpoint, declareBody: Bool) throws(APXError)
    -> RequestItems
  {
    var out = RequestItems()
    let declared = Set(endpoint.params.map(\.name))
    let hasFilePart = items.contains { if case .filePart = $0 { true } else { false } }
    try NestedItems.checkWholeOrParts(
      items.compactMap { if case .param(let a) = $0 { a } else { nil } },
      bindName: { argument in
        guard let path = argument.nested else { return (argument.name, false) }
        if declared.contains(path.flatName) { return (path.flatName, false) }
        return path.root.map { ($0, true) }
      })
    // An ad-hoc body is a form with --form, and multipart with a file part.
    let adHocForm = declareBody && (hasFilePart || endpoint.bodyEncoding == .form)
    var routes: [Route] = []
    for item in items {
      guard case .param(let argument) = item else { continue }
      routes.append(try route(argument, endpoint: endpoint, declared: declared, adHocForm: adHocForm))
    }
    // A name given more than once becomes an array (query) or a JSON value (body field).
    var queryCounts: [String: Int] = [:]
    var bodyCounts: [String: Int] = [:]
    for item in items {
      if case .query(let name, _) = item { queryCounts[name, default: 0] += 1 }
    }
    for route in routes {
      switch route {
      case .argument(let argument) where argument.nested == nil: bodyCounts[argument.name, default: 0] += 1
      case .formField(let argument, _, _): bodyCounts[argument.name, default: 0] += 1
      default: break
      }
    }
    var nextRoute = routes.makeIterator()
    for item in items {
      switch item {
      case .header(let name, let value):
        out.headers.append(HeaderField(name, value))
      case .query(let name, let value):
        let repeated = queryCounts[name, default: 0] > 1
        let bindName = declare(
          Param(name: name, location: .query, type: repeated ? .array : .string), in: &endpoint, reuseDeclared: true)
        out.arguments.append(ParamArgument(name: bindName, value: repeated ? .json(.string(value)) : .text(value)))
      case .param:
        guard let route = nextRoute.next() else { continue }
        switch route {
        case .argument(var argument):
          if declareBody, argument.nested != nil {
            if let root = argument.nested?.root {
              argument.name = declare(
                Param(name: root, location: .body, type: .json), in: &endpoint, reuseDeclared: false)
            }
          } else if declareBody {
            let type: ParamType
            switch argument.value {
            case .text, .file: type = bodyCounts[argument.name, default: 0] > 1 ? .json : .string
            case .json, .jsonFile, .stdinPath: type = .json
            }
            argument.name = declare(
              Param(name: argument.name, location: .body, type: type), in: &endpoint, reuseDeclared: false)
          }
          out.arguments.append(argument)
        case .formField(var argument, var field, let root):
          switch argument.value {
          case .text, .file: if bodyCounts[argument.name, default: 0] < 2 { field.type = .string }
          case .json, .jsonFile, .stdinPath: break
          }
          argument.name = declare(field, in: &endpoint, reuseDeclared: true)
          // The parts stand for the whole: it is given, and its default is not sent beside them.
          if let i = endpoint.params.firstIndex(where: { $0.name == root }) {
            endpoint.params[i].required = false
            endpoint.params[i].defaultValue = nil
          }
          out.arguments.append(argument)
        }
      case .filePart(let name, let path):
        var argumentName = name
        if declareBody {
          argumentName = declare(
            Param(name: name, location: .multipart, type: .file, contentType: MediaTypes.guess(path: path)),
            in: &endpoint, reuseDeclared: false)
        }
        out.arguments.append(ParamArgument(name: argumentName, value: .file(path: path)))
      }
    }
    return out
  }

  /// Where one `name=value`-style argument goes.
  enum Route {
    /// Bound as it is: a plain name, or a nested key whose value `NestedItems` builds.
    case argument(ParamArgument)
    /// A bracket key sent as a field of a registry endpoint's form or multipart body, under
    /// the field parameter to declare for it and the name of the parameter it is part of.
    case formField(ParamArgument, Param, root: String)
  }

  static func route(_ argument: ParamArgument, endpoint: Endpoint, declared: Set<String>, adHocForm: Bool)
    throws(APXError) -> Route
  {
    guard let path = argument.nested else { return .argument(argument) }
    if declared.contains(path.flatName) { return .argument(ParamArgument(name: path.flatName, value: argument.value)) }
    let formEncoded = endpoint.bodyEncoding == .form || endpoint.bodyEncoding == .multipart
    guard let root = path.root else {
      if adHocForm || formEncoded {
        throw APXError(
          .usage, "a form body has no top-level array (\(path.source))", hint: "name the field: name[]=value")
      }
      return .argument(argument)
    }
    if adHocForm { return .argument(ParamArgument(name: path.bracketKey(root: root), value: argument.value)) }
    guard let param = endpoint.param(named: root),
      [.form, .multipart].contains(param.location) || (param.location == .body && formEncoded)
    else { return .argument(argument) }
    let field = Param(
      name: path.bracketKey(root: root), location: param.location, type: .json, secret: param.secret,
      wireName: path.bracketKey(root: param.sentName))
    return .formField(ParamArgument(name: field.name, value: argument.value), field, root: root)
  }

  /// Declares `param` unless the endpoint has it; returns the name to bind it by.
  /// A name the endpoint already uses elsewhere gets a distinct bindName name and
  /// keeps its wire name, so `q==1` and `q=2` can go together.
  static func declare(_ param: Param, in endpoint: inout Endpoint, reuseDeclared: Bool) -> String {
    if let existing = endpoint.param(named: param.name) {
      if existing.location == param.location && (reuseDeclared || existing.type == param.type) { return param.name }
      var bindName = param.name + "." + param.location.rawValue
      var n = 2
      while let other = endpoint.param(named: bindName), other.location != param.location {
        bindName = param.name + "." + param.location.rawValue + String(n)
        n += 1
      }
      if endpoint.param(named: bindName) == nil {
        var renamed = param
        renamed.name = bindName
        renamed.wireName = param.sentName
        endpoint.params.append(renamed)
      }
      return bindName
    }
    endpoint.params.append(param)
    return param.name
  }
}

/// Content types guessed from a file name, for multipart file parts.
public enum MediaTypes {
  static let byExtension: [String: String] = [
    "json": "application/json", "csv": "text/csv", "txt": "text/plain", "html": "text/html", "xml": "application/xml",
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
    "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "yaml": "application/yaml",
    "yml": "application/yaml",
  ]

  /// The type for `path`'s extension, `application/octet-stream` when unknown.
  public static func guess(path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
    return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
  }
}
