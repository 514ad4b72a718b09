/// JSON members that carry credentials, by `CredentialParams`' rule for names: what a log or
/// an archive shows of a JSON body (`{"user": {"password": "***"}}`).
public enum CredentialMembers {
  /// `value` with the value of every credential-named member, at any depth, replaced by
  /// `"***"` (a number or an object too: what it held is not shown, only that it was there).
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
