/// Turns request items into what a call sends: parameter arguments to bind and
/// extra headers. An ad-hoc endpoint declares a parameter for every item; a
/// registry endpoint keeps its own and only gains query parameters for
/// `name==value` items it does not declare as query parameters.
public struct RequestItems: Sendable {
  /// Arguments to bind, in item order.
  public var arguments: [ParamArgument] = []
  /// `Name:value` headers in item order (an empty value removes the header).
  public var headers: [HeaderField] = []

  /// Applies `items` to `endpoint`.
  ///
  /// - Parameter declareBody: declare body fields and file parts as parameters
  ///   (an ad-hoc endpoint); false leaves them to the registry's declarations.
  public static func apply(_ items: [RequestItem], to endpoint: inout Endpoint, declareBody: Bool) -> RequestItems {
    var out = RequestItems()
    // A name given more than once becomes an array (query) or a JSON value (body field).
    var queryCounts: [String: Int] = [:]
    var bodyCounts: [String: Int] = [:]
    for item in items {
      if case .query(let name, _) = item { queryCounts[name, default: 0] += 1 }
      if case .param(let argument) = item { bodyCounts[argument.name, default: 0] += 1 }
    }
    for item in items {
      switch item {
      case .header(let name, let value):
        out.headers.append(HeaderField(name, value))
      case .query(let name, let value):
        let repeated = queryCounts[name, default: 0] > 1
        let bindName = declare(
          Param(name: name, location: .query, type: repeated ? .array : .string), in: &endpoint, reuseDeclared: true)
        out.arguments.append(ParamArgument(name: bindName, value: repeated ? .json(.string(value)) : .text(value)))
      case .param(var argument):
        if declareBody {
          let type: ParamType
          switch argument.value {
          case .text, .file: type = bodyCounts[argument.name, default: 0] > 1 ? .json : .string
          case .json, .jsonFile, .stdinPath: type = .json
          }
          argument.name = declare(
            Param(name: argument.name, location: .body, type: type), in: &endpoint, reuseDeclared: false)
        }
        out.arguments.append(argument)
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
