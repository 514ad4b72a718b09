public import APXCore

extension SecretMask {
  /// The secrets of a request apx did not make (`apx mock --record`), found as `-v` finds
  /// them: the values of credential headers (a bearer token, Basic's password, cookies), of
  /// credential query parameters, and of credential fields of a form or JSON body (a token
  /// request's `client_secret`, `password`, `refresh_token`, `code`).
  public static func proxied(headers: [HeaderField], url: String, body: [UInt8]) -> SecretMask {
    var mask = SecretMask()
    mask.addCredentialValues(of: headers)
    for value in CredentialParams.values(inURL: url) { mask.add(value) }
    mask.addCredentialFields(
      ofBody: body, contentType: headers.first { $0.name.lowercased() == "content-type" }?.value)
    return mask
  }

  /// Registers the values of a body's credential fields: a form's (a token request's `code`
  /// and `assertion` too), a multipart form's text fields, or a JSON body's credential members at
  /// any depth (whatever its declared type: JSON sent as `text/plain` too).
  public mutating func addCredentialFields(ofBody body: [UInt8], contentType: String?) {
    guard !body.isEmpty else { return }
    if let boundary = MultipartBody.boundary(ofContentType: contentType) {
      // A malformed body has no fields to read; its bytes are recorded as they are.
      for field in (try? MultipartBody.fields(body, boundary: boundary)) ?? []
      where CredentialParams.isCredential(field.name) {
        if let text = field.text { add(text) }
      }
      return
    }
    let contentType = MediaType.essence(contentType)
    if contentType == "application/x-www-form-urlencoded" {
      let text = String(decoding: body, as: UTF8.self)
      let pairs = text.split(separator: "&").map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let decode = { (s: Substring) in PercentDecoding.decode(String(s).replacing("+", with: " ")) }
        return (
          name: decode(parts[0]), raw: parts.count == 2 ? String(parts[1]) : "",
          value: parts.count == 2 ? decode(parts[1]) : ""
        )
      }
      let isTokenRequest = pairs.contains { $0.name == "grant_type" }
      for pair in pairs
      where CredentialParams.isCredential(pair.name)
        || (isTokenRequest && ["code", "code_verifier", "assertion", "subject_token"].contains(pair.name))
      {
        add(pair.value)
        add(pair.raw)
      }
    } else if let value = try? JSONParser.parse(body) {
      addCredentialMembers(of: value)
    }
  }

  /// Registers the string values of members with credential names (`access_token`,
  /// `refresh_token`, `password`, `client_secret`...), at any depth of `value`.
  public mutating func addCredentialMembers(of value: JSONValue) {
    switch value {
    case .object(let members):
      for member in members {
        if CredentialParams.isCredential(member.key), let text = member.value.stringValue {
          add(text)
        } else {
          addCredentialMembers(of: member.value)
        }
      }
    case .array(let items):
      for item in items { addCredentialMembers(of: item) }
    default:
      break
    }
  }
}
