extension Pagination {
  /// The registry's `pagination` block for this value, defaults included (what `apx describe` shows).
  public var registryJSON: JSONValue { registryJSON(includingDefaults: true) }

  /// The registry's `pagination` block; without `includingDefaults`, `start` 1 and the default
  /// `max_pages` are left out (how `RegistryWriter` writes it).
  public func registryJSON(includingDefaults: Bool) -> JSONValue {
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
      if includingDefaults || start != 1 { members.append(JSONMember("start", .int(start))) }
      if let hasNext { members.append(JSONMember("has_next", .string(hasNext.text))) }
    }
    if includingDefaults || maxPages != Pagination.defaultMaxPages {
      members.append(JSONMember("max_pages", .int(maxPages)))
    }
    return .object(members)
  }
}
