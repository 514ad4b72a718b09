/// A jar as the session file holds it: `{"cookies": [{"name", "value", "domain", "host_only",
/// "path", "secure", "expires"}]}` (expires in seconds since 1970, absent for a session cookie).
public enum CookieJarJSON {
  /// The file's JSON for `jar`.
  public static func encode(_ jar: CookieJar) -> JSONValue {
    .object([
      JSONMember(
        "cookies",
        .array(
          jar.cookies.map { c in
            var members = [
              JSONMember("name", .string(c.name)), JSONMember("value", .string(c.value)),
              JSONMember("domain", .string(c.domain)), JSONMember("host_only", .bool(c.hostOnly)),
              JSONMember("path", .string(c.path)), JSONMember("secure", .bool(c.secure)),
            ]
            if let expires = c.expires { members.append(JSONMember("expires", .number(String(Int64(expires))))) }
            return .object(members)
          }))
    ])
  }

  /// A problem with a session file's JSON.
  public struct Problem: Error, CustomStringConvertible {
    public var description: String
  }

  /// The jar a session file holds.
  public static func decode(_ value: JSONValue) throws(Problem) -> CookieJar {
    guard let items = value["cookies"]?.arrayValue else { throw Problem(description: "no \"cookies\" array") }
    var cookies: [Cookie] = []
    for item in items {
      guard let name = item["name"]?.stringValue, let value = item["value"]?.stringValue,
        let domain = item["domain"]?.stringValue, let path = item["path"]?.stringValue
      else { throw Problem(description: "a cookie without name, value, domain or path") }
      cookies.append(
        Cookie(
          name: name, value: value, domain: domain, hostOnly: item["host_only"]?.boolValue ?? true, path: path,
          secure: item["secure"]?.boolValue ?? false, expires: item["expires"]?.doubleValue))
    }
    return CookieJar(cookies)
  }
}
