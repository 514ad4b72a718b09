public import APXCore

/// Finds the endpoint a request is for: by path template, then by method.
struct RouteTable: Sendable {
  /// One endpoint with its path split into matchable segments.
  struct Route: Sendable {
    var endpoint: Endpoint
    var segments: [Segment]
    /// Literal segments first: `/pets/mine` wins over `/pets/{id}`.
    var literalCount: Int { segments.filter { if case .literal = $0 { true } else { false } }.count }
  }

  /// One `/`-separated part of a path template.
  enum Segment: Sendable {
    case literal(String)
    /// Text around placeholders: `{id}.json` is prefix "", name "id", suffix ".json".
    case placeholder(prefix: String, name: String, suffix: String)
    /// Several placeholders in one segment: matched loosely, values not captured.
    case loose
  }

  /// What a path and method find.
  enum Match {
    case found(Route, pathValues: [String: String])
    /// The path is served, not with this method.
    case methodNotAllowed(allowed: [String])
    case notFound
  }

  let routes: [Route]

  init(endpoints: [Endpoint]) {
    routes = endpoints.filter(\.kind.capabilities.servedOverHTTP).map { endpoint in
      Route(endpoint: endpoint, segments: Self.split(endpoint.path).map(Self.segment))
    }.sorted { $0.literalCount > $1.literalCount }
  }

  static func split(_ path: String) -> [Substring] {
    path.split(separator: "/", omittingEmptySubsequences: true)
  }

  static func segment(_ text: Substring) -> Segment {
    guard let open = text.firstIndex(of: "{") else { return .literal(String(text)) }
    guard let close = text[open...].firstIndex(of: "}") else { return .literal(String(text)) }
    let rest = text[text.index(after: close)...]
    if rest.contains("{") { return .loose }
    return .placeholder(
      prefix: String(text[..<open]), name: String(text[text.index(after: open)..<close]), suffix: String(rest))
  }

  func match(method: String, path: String) -> Match {
    let parts = Self.split(path).map(String.init)
    var allowed: [String] = []
    for route in routes where route.segments.count == parts.count {
      guard let values = Self.values(route.segments, parts) else { continue }
      if route.endpoint.method == method || (method == "HEAD" && route.endpoint.method == "GET") {
        return .found(route, pathValues: values)
      }
      allowed.append(route.endpoint.method)
    }
    return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
  }

  private static func values(_ segments: [Segment], _ parts: [String]) -> [String: String]? {
    var values: [String: String] = [:]
    for (segment, part) in zip(segments, parts) {
      switch segment {
      case .literal(let text): if text != part && text != PercentDecoding.decode(part) { return nil }
      case .placeholder(let prefix, let name, let suffix):
        guard part.hasPrefix(prefix), part.hasSuffix(suffix), part.count > prefix.count + suffix.count else {
          return nil
        }
        values[name] = PercentDecoding.decode(String(part.dropFirst(prefix.count).dropLast(suffix.count)))
      case .loose: if part.isEmpty { return nil }
      }
    }
    return values
  }
}
