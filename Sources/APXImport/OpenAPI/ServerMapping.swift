import APXCore

/// Maps 3.x `servers` and Swagger 2.0 `schemes`/`host`/`basePath` to
/// environments. Variables take their defaults; a relative URL is resolved
/// against the URL the document was fetched from, else it becomes
/// `${env:<API>_BASE_URL}` plus the relative path. The path prefix is kept.
struct ServerMapping {
  let sourceURL: String?
  let prefix: String

  /// One environment candidate: a name hint and a URL.
  struct Server {
    var hint: String?
    var url: String
  }

  func environments(openAPI3 root: JSONValue, report: inout ImportReport) -> [NamedEnvironment] {
    var servers: [Server] = []
    for s in root["servers"]?.arrayValue ?? [] {
      guard var url = s["url"]?.stringValue else { continue }
      for v in s["variables"]?.objectMembers ?? [] {
        let value = v.value["default"]?.stringValue ?? v.value["enum"]?.arrayValue?.first?.stringValue ?? ""
        url = url.replacing("{\(v.key)}", with: value)
      }
      servers.append(Server(hint: s["description"]?.stringValue, url: url))
    }
    if servers.isEmpty { servers = [Server(hint: nil, url: "/")] }
    return name(servers, report: &report)
  }

  func environments(swagger2 root: JSONValue, report: inout ImportReport) -> [NamedEnvironment] {
    let basePath = root["basePath"]?.stringValue ?? ""
    guard let host = root["host"]?.stringValue, !host.isEmpty else {
      return name([Server(hint: nil, url: basePath.isEmpty ? "/" : basePath)], report: &report)
    }
    var schemes = root["schemes"]?.arrayValue?.compactMap(\.stringValue).filter { $0 == "https" || $0 == "http" } ?? []
    if schemes.isEmpty { schemes = [sourceURL?.hasPrefix("http://") == true ? "http" : "https"] }
    // https first: it is what a user should call by default.
    schemes = schemes.filter { $0 == "https" } + schemes.filter { $0 != "https" }
    return name(schemes.map { Server(hint: $0, url: "\($0)://\(host)\(basePath)") }, report: &report)
  }

  private func name(_ servers: [Server], report: inout ImportReport) -> [NamedEnvironment] {
    var used = Set<String>()
    var out: [NamedEnvironment] = []
    for (i, s) in servers.enumerated() {
      guard let base = absolute(s.url, report: &report) else { continue }
      var name = servers.count == 1 ? "default" : (s.hint.map(Self.slug) ?? "")
      if name.isEmpty || used.contains(name) { name = "server-\(i + 1)" }
      used.insert(name)
      var trimmed = base
      while trimmed.hasSuffix("/"), trimmed.count > 1, !trimmed.hasSuffix("://") { trimmed.removeLast() }
      out.append(NamedEnvironment(name: name, baseURL: trimmed, description: s.hint.flatMap { Text.summary($0) }))
    }
    return out
  }

  /// An absolute base URL for `url`, or nil (with a note) when it cannot become one.
  func absolute(_ url: String, report: inout ImportReport) -> String? {
    let lower = url.lowercased()
    if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return url }
    if lower.hasPrefix("//") {
      let scheme = sourceURL?.hasPrefix("http://") == true ? "http:" : "https:"
      return scheme + url
    }
    if url.contains("://") {
      report.note("server \(url) is not http(s); it was left out")
      return nil
    }
    if let sourceURL, let origin = Self.origin(sourceURL) {
      if url.hasPrefix("/") { return origin + url }
      // Relative to the document's folder.
      let folder = sourceURL.split(separator: "?").first.map(String.init) ?? sourceURL
      let dir = folder.hasSuffix("/") ? folder : String(folder[..<(folder.lastIndex(of: "/") ?? folder.endIndex)]) + "/"
      return dir + (url.hasPrefix("./") ? String(url.dropFirst(2)) : url)
    }
    let variable = prefix + "_BASE_URL"
    report.note(
      "the server URL \"\(url)\" is relative; set \(variable) to the API's origin (e.g. https://api.example.com)")
    report.needs(variable)
    let path = url.hasPrefix("/") ? url : "/" + url
    return "${env:\(variable)}" + (path == "/" ? "" : path)
  }

  /// `https://host:port` of an absolute URL.
  static func origin(_ url: String) -> String? {
    guard let schemeEnd = url.firstRange(of: "://") else { return nil }
    let rest = url[schemeEnd.upperBound...]
    let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    return host.isEmpty ? nil : String(url[..<schemeEnd.upperBound]) + host
  }

  /// `Production server (uses live data)` -> `production-server-uses`.
  static func slug(_ text: String) -> String {
    let words = OperationNaming.kebab(Array(text.lowercased())).split(separator: "-").prefix(3)
    return words.joined(separator: "-")
  }
}
