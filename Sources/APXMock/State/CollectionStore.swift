import APXCore
import Synchronization

/// `--stateful`: resources written to REST-convention collections, kept in memory so a
/// created resource can be read back. `POST /pets` adds to `/pets` (the body, with an `id`
/// when it has none); `GET`, `PUT`, `PATCH` and `DELETE /pets/{id}` read, replace, merge and
/// remove one; `GET /pets` lists them.
final class CollectionStore: Sendable {
  private struct State {
    var collections: [String: [(id: String, value: JSONValue)]] = [:]
    var nextID = 1
  }

  private let state = Mutex(State())

  func reset() { state.withLock { $0 = State() } }

  /// The answer of the stateful operation, or nil when the request is not one (the mock then
  /// answers as without `--stateful`).
  func answer(_ request: MockRequest, route: RouteTable.Route, pathValues: [String: String]) -> MockAnswer? {
    let parts = RouteTable.split(request.path).map(String.init)
    let itemRoute: Bool
    if case .placeholder(let prefix, _, let suffix)? = route.segments.last, prefix.isEmpty, suffix.isEmpty {
      itemRoute = true
    } else {
      itemRoute = false
    }
    let collection = "/" + (itemRoute ? parts.dropLast() : parts[...]).joined(separator: "/")
    let id = itemRoute ? parts.last ?? "" : nil
    switch (request.method, id) {
    case ("POST", nil):
      guard case .object(var members)? = request.jsonBody else { return nil }
      let newID: String = state.withLock { s in
        if let given = members.first(where: { $0.key == "id" })?.value { return given.stringValue ?? given.compactJSON }
        defer { s.nextID += 1 }
        return String(s.nextID)
      }
      if !members.contains(where: { $0.key == "id" }) {
        members.insert(JSONMember("id", Int(newID).map(JSONValue.int) ?? .string(newID)), at: 0)
      }
      let value = JSONValue.object(members)
      state.withLock { s in
        s.collections[collection, default: []].removeAll { $0.id == newID }
        s.collections[collection, default: []].append((newID, value))
      }
      return .json(201, value)
    case ("GET", nil):
      let items = state.withLock { $0.collections[collection] }
      return items.map { .json(200, .array($0.map(\.value))) }
    case ("GET", let id?):
      return state.withLock { s in
        guard let item = s.collections[collection]?.first(where: { $0.id == id }) else { return notFound(id) }
        return .json(200, item.value)
      }
    case ("PUT", let id?), ("PATCH", let id?):
      guard case .object(let members)? = request.jsonBody else { return nil }
      return state.withLock { s in
        var items = s.collections[collection, default: []]
        var value = JSONValue.object(members)
        if let i = items.firstIndex(where: { $0.id == id }) {
          if request.method == "PATCH", case .object(var old) = items[i].value {
            for m in members {
              if let j = old.firstIndex(where: { $0.key == m.key }) { old[j] = m } else { old.append(m) }
            }
            value = .object(old)
          }
          items[i].value = value
        } else if request.method == "PATCH" {
          return notFound(id)
        } else {
          items.append((id, value))
        }
        s.collections[collection] = items
        return .json(200, value)
      }
    case ("DELETE", let id?):
      return state.withLock { s in
        guard let i = s.collections[collection]?.firstIndex(where: { $0.id == id }) else { return notFound(id) }
        s.collections[collection]?.remove(at: i)
        return MockAnswer(status: 204)
      }
    default:
      return nil
    }
  }

  private func notFound(_ id: String) -> MockAnswer {
    .problem(404, title: "Not Found", detail: "no resource with id \(id) (--stateful)")
  }
}
