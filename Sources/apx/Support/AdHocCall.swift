import APXCore
import APXRuntime

/// `apx call [METHOD] URL [ITEM ...]`: recognises a URL target (see `AdHocURL.isURL`)
/// and makes its endpoint on the spot.
struct AdHocCall {
  var method: String?
  var url: AdHocURL
  var items: [RequestItem]

  /// The ad-hoc call `target items` describe, or nil for `API.ENDPOINT`.
  /// A METHOD is a word without `.`, `/` or `:` followed by a URL.
  static func parse(target: String, items: [String]) throws -> AdHocCall? {
    var method: String?
    var urlText = target
    var rest = items
    if !AdHocURL.isURL(target), !target.contains("."), let first = items.first, AdHocURL.isURL(first) {
      method = target
      urlText = first
      rest.removeFirst()
    }
    guard AdHocURL.isURL(urlText) else {
      if !target.contains("."), let first = items.first, !first.isEmpty {
        throw APXError(
          .usage, "\"\(target) \(first)\": a METHOD goes before a URL, and \"\(first)\" is not one",
          hint: "write e.g. apx call \(target) http://\(first); a URL has a scheme, a '/' or a ':'")
      }
      return nil
    }
    let url = try AdHocURL(parsing: urlText)
    let parsed = try rest.map { text throws(APXError) in try RequestItem(parsing: text) }
    return AdHocCall(method: method, url: url, items: parsed)
  }
}

extension AdHocCall {
  /// The endpoint for this call, under the registry API whose base URL covers the URL
  /// (unless `--no-auth`... still matched: its headers and retry apply; only auth goes).
  func prepare(_ call: CallCommand, registry: RegistryFiles, context: Context) throws -> PreparedCall {
    let global = call.global
    for (flag, given) in [
      ("--base-url", global.baseURL != nil), ("--env", global.environment != nil), ("--demo", global.demo),
    ]
    where given {
      throw APXError(
        .usage, "\(flag) goes with API.ENDPOINT; the URL \(url.text) already names its server",
        hint: "drop \(flag), or call a registry endpoint: apx call API.ENDPOINT \(flag) ...")
    }
    let match = try BaseURLMatcher.match(
      url, registry: registry, environment: context.environment, withoutAuth: call.noAuth)
    let made: AdHocEndpoint
    if url.scheme == "grpc" || url.scheme == "grpcs" {
      if let method {
        throw APXError(
          .usage, "a gRPC call has no HTTP method (\(method))", hint: "drop it: apx call \(url.text) -d '{...}'")
      }
      if call.form { throw APXError(.usage, "--form builds HTTP bodies; a gRPC request is a message") }
      made = try AdHocGRPCEndpoint.make(url: url, items: items, schema: call.schema.source(), match: match)
    } else if url.scheme == "ws" || url.scheme == "wss" {
      try call.schema.requireGRPC("\(url.text) is \(url.scheme)")
      if call.graphQL.document != nil {
        throw APXError(
          .usage, "--graphql sends a POST over HTTP; \(url.text) is a WebSocket URL",
          hint: "give the server's http:// or https:// URL")
      }
      // A handshake is a GET: any other method would be dropped without a word.
      if let method, method != "GET" {
        throw APXError(
          .usage, "a WebSocket handshake is a GET; \(method) does not apply to a \(url.scheme):// URL",
          hint: "drop \(method) (or -X), or call the server's http:// or https:// URL")
      }
      made = try AdHocWebSocket.make(url: url, items: items, call: call, match: match)
    } else if let document = try call.graphQL.documentText() {
      try call.schema.requireGRPC("\(url.text) is \(url.scheme)")
      made = try AdHocGraphQL.make(method: method, url: url, items: items, document: document, call: call, match: match)
    } else {
      try call.schema.requireGRPC("\(url.text) is \(url.scheme)")
      made = try AdHocEndpoint.make(
        method: method, url: url, items: items, hasData: call.data != nil, form: call.form, match: match)
    }
    return PreparedCall(
      api: made.api, endpoint: made.endpoint, arguments: made.arguments, headers: made.headers, adHoc: true,
      fixedBaseURL: made.baseURL, environmentName: made.environmentName,
      note: match.map {
        "apx: \(url.text) is under the API \"\($0.api.name)\" (environment \"\($0.environmentName)\", \($0.baseURL))"
          + (call.noAuth ? "; --no-auth: its auth is not used" : ": its auth, headers and retry policy apply")
      }, url: url)
  }
}
