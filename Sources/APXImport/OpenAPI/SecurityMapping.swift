import APXCore

/// Maps security schemes and requirements to registry `auth` blocks whose
/// secrets come from environment variables named after the API (and the
/// scheme, when the document defines several):
/// bearer `<P>_TOKEN`; basic `<P>_USERNAME`/`<P>_PASSWORD`; apiKey `<P>_API_KEY`;
/// oauth2 client credentials `<P>_CLIENT_ID`/`<P>_CLIENT_SECRET`.
struct SecurityMapping {
  let schemes: [JSONMember]
  let resolver: ReferenceResolver
  let prefix: String

  /// What one requirement maps to.
  struct Mapped: Equatable {
    var auth: AuthConfig
    var variables: [String]
    var note: String?
  }

  init(schemes: [JSONMember], resolver: ReferenceResolver, apiName: String) {
    self.schemes = schemes
    self.resolver = resolver
    self.prefix = Self.envName(apiName)
  }

  /// `my-api` -> `MY_API`.
  static func envName(_ text: String) -> String {
    var out = ""
    for ch in text {
      if ch.isASCII, ch.isLetter || ch.isNumber {
        out.append(Character(ch.uppercased()))
      } else if !out.isEmpty, out.last != "_" {
        out.append("_")
      }
    }
    while out.last == "_" { out.removeLast() }
    return out.isEmpty ? "API" : out
  }

  /// The variable prefix of a scheme: the API's alone when it is the only scheme.
  func variablePrefix(_ scheme: String) -> String {
    schemes.count <= 1 ? prefix : prefix + "_" + Self.envName(scheme)
  }

  /// A security requirement list (alternatives): the first alternative apx can use;
  /// `.none` for an empty list or an empty alternative. Notes collect what was approximated.
  func auth(for requirements: [JSONValue], notes: inout [String]) -> Mapped? {
    if requirements.isEmpty { return Mapped(auth: .none, variables: []) }
    var reasons: [String] = []
    for requirement in requirements {
      guard let entries = requirement.objectMembers else { continue }
      if entries.isEmpty { return Mapped(auth: .none, variables: []) }  // `{}`: auth is optional
      for (i, entry) in entries.enumerated() {
        let scopes = entry.value.arrayValue?.compactMap(\.stringValue) ?? []
        switch scheme(named: entry.key, scopes: scopes) {
        case .success(var mapped):
          if entries.count > 1 {
            let others = entries.enumerated().filter { $0.offset != i }.map(\.element.key)
            mapped.note = [mapped.note, "it also requires \(others.joined(separator: ", ")), which apx does not send"]
              .compactMap { $0 }.joined(separator: "; ")
          }
          if let n = mapped.note { notes.append("auth \(entry.key): \(n)") }
          return mapped
        case .failure(let why):
          reasons.append("\(entry.key): \(why.reason)")
        }
      }
    }
    for r in reasons { notes.append("auth \(r)") }
    return nil
  }

  /// One named scheme.
  func scheme(named name: String, scopes: [String]) -> Result<Mapped, OperationSkip> {
    guard let raw = schemes.first(where: { $0.key == name })?.value else {
      return .failure(OperationSkip("no security scheme of that name is defined"))
    }
    guard let s = try? resolver.resolve(raw) else {
      return .failure(OperationSkip("its definition is a broken reference"))
    }
    let p = variablePrefix(name)
    let type = s["type"]?.stringValue ?? ""
    switch type {
    case "http":
      let httpScheme = (s["scheme"]?.stringValue ?? "").lowercased()
      if httpScheme == "bearer" {
        return .success(Mapped(auth: .bearer(token: "${env:\(p)_TOKEN}"), variables: [p + "_TOKEN"]))
      }
      if httpScheme == "basic" { return .success(basic(p)) }
      return .failure(OperationSkip("HTTP \(httpScheme) authentication is not supported"))
    case "basic":  // Swagger 2.0
      return .success(basic(p))
    case "apiKey":
      guard let keyName = s["name"]?.stringValue, !keyName.isEmpty else {
        return .failure(OperationSkip("the apiKey scheme has no name"))
      }
      let value = "${env:\(p)_API_KEY}"
      switch s["in"]?.stringValue {
      case "header":
        return .success(
          Mapped(auth: .apiKey(location: .header, name: keyName, value: value), variables: [p + "_API_KEY"]))
      case "query":
        return .success(
          Mapped(auth: .apiKey(location: .query, name: keyName, value: value), variables: [p + "_API_KEY"]))
      case "cookie":
        return .success(
          Mapped(
            auth: .apiKey(location: .header, name: "Cookie", value: "\(keyName)=\(value)"), variables: [p + "_API_KEY"],
            note: "the API key is sent as the cookie \(keyName) in a Cookie header"))
      default: return .failure(OperationSkip("the apiKey scheme is in \(s["in"]?.stringValue ?? "nowhere")"))
      }
    case "oauth2":
      return .success(oauth2(s, prefix: p, scopes: scopes))
    case "openIdConnect":
      return .success(
        Mapped(
          auth: .bearer(token: "${env:\(p)_TOKEN}"), variables: [p + "_TOKEN"],
          note:
            "OpenID Connect login is not something apx runs; export \(p)_TOKEN with an access token (or use a token_command auth)"
        ))
    case "mutualTLS":
      return .failure(OperationSkip("mutual TLS is not supported by registry auth"))
    default:
      return .failure(OperationSkip("unknown security scheme type \"\(type)\""))
    }
  }

  func basic(_ p: String) -> Mapped {
    Mapped(
      auth: .basic(username: "${env:\(p)_USERNAME}", password: "${env:\(p)_PASSWORD}"),
      variables: [p + "_USERNAME", p + "_PASSWORD"])
  }

  /// OAuth2: client credentials when the scheme offers that flow, else a bearer token from the environment.
  func oauth2(_ s: JSONValue, prefix p: String, scopes: [String]) -> Mapped {
    // 3.x: flows.clientCredentials.tokenUrl; 2.0: flow "application" with tokenUrl.
    let flow: JSONValue? = s["flows"]?["clientCredentials"] ?? (s["flow"]?.stringValue == "application" ? s : nil)
    if let flow, let tokenURL = flow["tokenUrl"]?.stringValue, !tokenURL.isEmpty {
      return Mapped(
        auth: .oauth2ClientCredentials(
          OAuth2Config(
            tokenURL: tokenURL, clientID: "${env:\(p)_CLIENT_ID}", clientSecret: "${env:\(p)_CLIENT_SECRET}",
            scopes: scopes)),
        variables: [p + "_CLIENT_ID", p + "_CLIENT_SECRET"])
    }
    let flows = s["flows"]?.objectMembers?.map(\.key) ?? [s["flow"]?.stringValue].compactMap { $0 }
    return Mapped(
      auth: .bearer(token: "${env:\(p)_TOKEN}"), variables: [p + "_TOKEN"],
      note:
        "OAuth2 \(flows.joined(separator: "/")) needs a browser login that apx does not run; export \(p)_TOKEN with an access token (or use a token_command auth)"
    )
  }
}
