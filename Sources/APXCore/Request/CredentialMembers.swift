/// JSON members that carry credentials, by `CredentialParams`' rule for names: what a log or
/// an archive shows of a JSON body (`{"user": {"password": "***"}}`).
public enum CredentialMembers {
  /// `value` with the value of every credential-named member, at any depth, replaced by
  /// `"***"` (a number or an object too: what it held is not shown, only that it was there).
  /// `text` with its credential members masked when it is JSON that holds any (compact, as
  /// JSON again); `text` itself, byte for byte, when it is not JSON or holds none.
  public static func maskedText(_ text: String) -> String {
    guard text.contains("\""), let value = try? JSONParser.parse(text) else { return text }
    let masked = masked(value)
    return masked == value ? text : masked.compactJSON
  }

  public static func masked(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let items):
      return .array(items.map(masked))
    case .object(let members):
      return .object(
        members.map { member in
          CredentialParams.isCredential(member.key) && member.value != .null
            ? JSONMember(member.key, .string("***")) : JSONMember(member.key, masked(member.value))
        })
    default:
      return value
    }
  }
}
