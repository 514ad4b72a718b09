extension Pagination {
  /// The registry's `pagination` block for this value (what `apx describe` shows).
  public var registryJSON: JSONValue {
    var members = [JSONMember("style", .string(style.name))]
    if let items { members.append(JSONMember("items", .string(items.text))) }
    switch style {
    case .link:
      break
    case .cursor(let next, let param):
      members.append(JSONMember("next_cursor", .string(next.text)))
      members.append(JSONMember("cursor_param", .string(param)))
    case .page(let param, let start, let hasNext):
      members.append(JSONMember("page_param", .string(param)))
      members.append(JSONMember("start", .int(start)))
      if let hasNext { members.append(JSONMember("has_next", .string(hasNext.text))) }
    }
    members.append(JSONMember("max_pages", .int(maxPages)))
    return .object(members)
  }
}
