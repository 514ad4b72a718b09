/// Builds the values of nested request items by HTTPie 3's nested-JSON rules, once files and
/// stdin are read: the items of one root fill one value in item order (`user[name]=Ann
/// user[tags][]=a` is `{"name": "Ann", "tags": ["a"]}`), a key step needs an object there, an
/// index or append step an array, and a conflict is a usage error with a caret under the step.
/// `[]` items build a top-level array: the whole body, which then has no fields.
public enum NestedItems {
  /// The bound values, each root's parts folded into one value at the place of its first part.
  public struct Assembled: Sendable {
    public var values: [(name: String, value: BoundValue)]
    /// The top-level array `[]:=1` and `[0]=a` items build; nil without such items.
    public var body: JSONValue?
  }

  /// Folds the parts of nested items into values.
  ///
  /// - Parameters:
  ///   - values: bound values in item order, each with the nested key it came from (nil: a plain name).
  ///   - isBodyField: whether a name is a field of the body (a body, form, multipart or message
  ///     parameter): such fields cannot go with a top-level array.
  public static func assemble(
    _ values: [(name: String, nested: NestedPath?, value: BoundValue)], isBodyField: (String) -> Bool
  ) throws(APXError) -> Assembled {
    var out: [(name: String, value: BoundValue)] = []
    var roots: [String: Int] = [:]
    var plain: Set<String> = []
    var body: JSONValue?
    var firstArrayItem: NestedPath?
    var firstField: String?
    for (name, nested, bound) in values {
      guard let path = nested else {
        if roots[name] != nil { throw wholeAndParts(name) }
        if isBodyField(name) {
          if let item = firstArrayItem {
            throw APXError(
              .usage,
              "the body is an array (the item \"\(item.source)\" starts it), so it cannot have the field \"\(name)\"",
              hint: "send either a top-level array ([]=… items) or fields")
          }
          firstField = firstField ?? name
        }
        plain.insert(name)
        out.append((name, bound))
        continue
      }
      guard case .json(let value) = bound else {
        throw APXError(
          .usage, "the file parameter \"\(name)\" cannot be filled by parts (\(path.source))",
          hint: "give the file as \(name)=@path")
      }
      guard path.root != nil else {
        if let field = firstField {
          throw conflict(path, 0, "an array", found: "an object (it has the field \"\(field)\")")
        }
        var container = body ?? .array([])
        body = nil
        try insert(&container, path, 0, value)
        body = container
        firstArrayItem = firstArrayItem ?? path
        continue
      }
      if plain.contains(name) { throw wholeAndParts(name) }
      if isBodyField(name) {
        if firstArrayItem != nil { throw conflict(path, 0, "an object", found: "an array (from [] items)") }
        firstField = firstField ?? name
      }
      if let index = roots[name], case .json(var container) = out[index].value {
        out[index].value = .json(.null)
        try insert(&container, path, 1, value)
        out[index].value = .json(container)
      } else {
        var container = fresh(path.steps[1])
        try insert(&container, path, 1, value)
        roots[name] = out.count
        out.append((name, .json(container)))
      }
    }
    return Assembled(values: out, body: body)
  }

  /// A parameter given both whole (`user=…`, `user:=…`) and by parts (`user[name]=…`) is a usage
  /// error: whether the parts should edit, replace or follow the whole value has no one answer.
  ///
  /// - Parameter bindName: the name an item binds (the root of a nested key, or the exact name
  ///   of a declared parameter); nil leaves the item out (a top-level array item).
  public static func checkWholeOrParts(_ arguments: [ParamArgument], bindName: (ParamArgument) -> (String, Bool)?)
    throws(APXError)
  {
    var whole: Set<String> = []
    var parts: Set<String> = []
    for argument in arguments {
      guard let (name, isPart) = bindName(argument) else { continue }
      if isPart ? whole.contains(name) : parts.contains(name) { throw wholeAndParts(name) }
      if isPart { parts.insert(name) } else { whole.insert(name) }
    }
  }

  static func wholeAndParts(_ name: String) -> APXError {
    APXError(
      .usage, "\"\(name)\" is given both whole (\(name)=… or \(name):=…) and by parts (\(name)[…]=…)",
      hint: "give it one way: all of it with \(name):='{…}', or each part with \(name)[key]=…")
  }

  /// An empty object or array, whichever `step` goes into.
  static func fresh(_ step: NestedPath.Step) -> JSONValue {
    if case .key = step { .object([]) } else { .array([]) }
  }

  /// Sets `value` at `path.steps[k...]` below `slot`.
  static func insert(_ slot: inout JSONValue, _ path: NestedPath, _ k: Int, _ value: JSONValue) throws(APXError) {
    let last = k == path.steps.count - 1
    switch path.steps[k] {
    case .key(let key):
      guard case .object(var members) = slot else { throw conflict(path, k, "an object", found: slot) }
      slot = .null  // one copy of the members, not two
      defer { slot = .object(members) }
      let index: Int
      if let found = members.firstIndex(where: { $0.key == key }) {
        index = found
      } else {
        members.append(JSONMember(key, last ? value : fresh(path.steps[k + 1])))
        index = members.count - 1
      }
      if last {
        members[index].value = value
      } else {
        try insert(&members[index].value, path, k + 1, value)
      }
    case .index(let n):
      guard case .array(var items) = slot else { throw conflict(path, k, "an array", found: slot) }
      slot = .null
      defer { slot = .array(items) }
      if items.count <= n { items += repeatElement(JSONValue.null, count: n + 1 - items.count) }
      if last {
        items[n] = value
      } else {
        if items[n] == .null { items[n] = fresh(path.steps[k + 1]) }
        try insert(&items[n], path, k + 1, value)
      }
    case .append:
      guard case .array(var items) = slot else { throw conflict(path, k, "an array", found: slot) }
      slot = .null
      defer { slot = .array(items) }
      items.append(last ? value : fresh(path.steps[k + 1]))
      if !last { try insert(&items[items.count - 1], path, k + 1, value) }
    }
  }

  static func conflict(_ path: NestedPath, _ k: Int, _ needs: String, found: JSONValue) -> APXError {
    let article =
      switch found {
      case .null: "null"
      case .array, .object: "an \(found.typeName)"
      default: "a \(found.typeName)"
      }
    return conflict(path, k, needs, found: article)
  }

  static func conflict(_ path: NestedPath, _ k: Int, _ needs: String, found: String) -> APXError {
    let step: String
    switch path.steps[k] {
    case .key(let key): step = k == 0 ? "the field \"\(key)\"" : "[\(key)] is a key and"
    case .index(let n): step = "[\(n)] is an index and"
    case .append: step = "[] appends and"
    }
    let what = k == 0 && path.root != nil ? step + " needs an object body" : "\(step) needs \(needs)"
    return APXError(
      .usage,
      "type conflict in the request item key \"\(path.source)\": \(what), but \(path.prefix(k)) is \(found) here",
      hint: "one place holds one type: name[key]=… makes an object, name[]=… and name[0]=… an array",
      cause: NestedPath.caret(path.source, path.spans[k]))
  }
}
