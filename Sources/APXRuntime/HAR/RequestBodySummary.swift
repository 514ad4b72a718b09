public import APXCore

/// What a HAR entry says of a request's body (`postData`): its type, and its text when apx
/// holds it in memory as text, with the call's secrets masked. File, stdin and multipart file
/// bodies are named, not read again.
public struct RequestBodySummary: Sendable, Hashable {
  public var mimeType: String
  /// The body as sent (masked), nil when it was not text or not in memory.
  public var text: String?
  /// Bytes when known before sending.
  public var size: Int?

  /// The summary of `body`, nil for a request without one.
  public init?(_ body: RequestBody, mask: SecretMask) {
    switch body {
    case .none:
      return nil
    case .bytes(let bytes, let contentType):
      mimeType = contentType
      // A credential member at any depth (`{"user": {"password": ...}}`) is masked by its name.
      text = String(validating: bytes, as: UTF8.self).map { CredentialMembers.maskedText(mask.mask($0)) }
      size = bytes.count
    case .file(_, let contentType), .stdin(let contentType):
      mimeType = contentType
      text = nil
      size = nil
    case .multipart(let parts, let boundary):
      mimeType = "multipart/form-data; boundary=\(boundary)"
      // The fields as `name=value` lines, files as their names: what the form held.
      text = parts.map { part in
        switch part {
        case .field(let name, let value, _):
          "\(name)=\(CredentialParams.isCredential(name) ? "***" : CredentialMembers.maskedText(mask.mask(value)))"
        case .file(let name, _, let filename, _): "\(name)=@\(filename)"
        }
      }.joined(separator: "\n")
      size = nil
    }
  }
}
