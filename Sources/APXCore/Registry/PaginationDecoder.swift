/// The `pagination` block of a registry endpoint.
extension RegistryLoader {
  static let paginationKeys = [
    "style", "items", "next_cursor", "cursor_param", "page_param", "start", "has_next", "max_pages",
  ]

  /// Keys each style uses beyond `style`, `items` and `max_pages`.
  private static let styleKeys: [String: [String]] = [
    "link": [], "cursor": ["next_cursor", "cursor_param"], "page": ["page_param", "start", "has_next"],
  ]

  /// Decodes `pagination` of endpoint `e` (its params already decoded); problems go to `r`.
  static func decodePagination(
    _ value: JSONValue, endpoint e: Endpoint, at p: [JSONPathComponent], _ r: inout DocumentReader
  ) -> Pagination? {
    guard let f = r.object(value, at: p, allowed: paginationKeys) else { return nil }
    guard let styleName = r.requiredString(f, "style", at: p) else { return nil }
    if !e.kind.isHTTPRequest, styleName == "link" {
      r.fail(
        p + [.key("style")], "\(e.kind.withArticle) answer has no Link header, so style \"link\" cannot apply",
        hint:
          "page tokens: {\"style\": \"cursor\", \"next_cursor\": \".nextPageToken\", \"cursor_param\": \"page_token\"}")
      return nil
    }
    guard let uses = styleKeys[styleName] else {
      r.fail(
        p + [.key("style")], "unknown pagination style \"\(styleName)\"",
        hint: "use link (the Link: rel=\"next\" header), cursor (a next-cursor field) or page (page numbers)")
      return nil
    }
    for key in ["next_cursor", "cursor_param", "page_param", "start", "has_next"]
    where !uses.contains(key) && f.contains(where: { $0.key == key }) {
      let owner = styleKeys.first { $0.value.contains(key) }?.key ?? "?"
      r.fail(p + [.key(key)], "\"\(key)\" applies only to style \"\(owner)\", and this one is \"\(styleName)\"")
    }
    let items = path(f, "items", at: p, &r)
    let maxPages =
      r.optionalInt(f, "max_pages", at: p, range: 1...Pagination.maxPagesLimit) ?? Pagination.defaultMaxPages
    let style: Pagination.Style
    switch styleName {
    case "cursor":
      guard let next = requiredPath(f, "next_cursor", at: p, example: ".next_cursor", &r),
        let param = pageParameter(f, "cursor_param", endpoint: e, at: p, &r)
      else { return nil }
      style = .cursor(next: next, param: param)
    case "page":
      guard let param = pageParameter(f, "page_param", endpoint: e, at: p, &r) else { return nil }
      style = .page(
        param: param, start: r.optionalInt(f, "start", at: p, range: 0...1_000_000) ?? 1,
        hasNext: path(f, "has_next", at: p, &r))
    default:
      style = .link
    }
    return Pagination(style: style, items: items, maxPages: maxPages)
  }

  /// A jq-style path member, or nil (absent or invalid, reported).
  private static func path(
    _ f: [JSONMember], _ key: String, at p: [JSONPathComponent], _ r: inout DocumentReader
  ) -> JSONPath? {
    guard let text = r.optionalString(f, key, at: p) else { return nil }
    do {
      let path = try JSONPath(parsing: text)
      if path.iterates {
        r.fail(
          p + [.key(key)], "\"\(key)\" must name one value, and \(text) iterates with []",
          hint: "name the field itself, e.g. \".data.items\"")
        return nil
      }
      return path
    } catch {
      r.fail(p + [.key(key)], "\"\(key)\" is not a valid path: \(error.message)", hint: "e.g. \".data.items\"")
      return nil
    }
  }

  private static func requiredPath(
    _ f: [JSONMember], _ key: String, at p: [JSONPathComponent], example: String, _ r: inout DocumentReader
  ) -> JSONPath? {
    guard f.contains(where: { $0.key == key }) else {
      r.fail(p, "missing required key \"\(key)\"", hint: "e.g. \"\(key)\": \"\(example)\"")
      return nil
    }
    return path(f, key, at: p, &r)
  }

  /// The parameter a style fills in: one of the endpoint's query or body params.
  private static func pageParameter(
    _ f: [JSONMember], _ key: String, endpoint e: Endpoint, at p: [JSONPathComponent], _ r: inout DocumentReader
  ) -> String? {
    guard let name = r.requiredString(f, key, at: p) else { return nil }
    // Without declared params, a gRPC call may set any field of its message (the schema says which).
    if e.kind.fieldsFromSchema && e.params.isEmpty { return name }
    guard let param = e.param(named: name) else {
      r.fail(
        p + [.key(key)], "\"\(key)\" names \"\(name)\", which is not a parameter of this endpoint",
        hint: Suggestions.hint(for: name, in: e.params.map(\.name))
          ?? "declare it under \"params\" (\"in\": \"query\" or \"body\")")
      return nil
    }
    guard [.query, .body, .message].contains(param.location) else {
      r.fail(
        p + [.key(key)], "\"\(key)\" names \"\(name)\", a \(param.location.rawValue) parameter",
        hint: "the page parameter must be \"in\": \"query\" or \"body\" (gRPC: a message field)")
      return nil
    }
    return name
  }
}
