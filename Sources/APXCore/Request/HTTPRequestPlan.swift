/// Everything needed to send one HTTP request, decided before any I/O.
/// The runtime turns it into an AsyncHTTPClient request; `--dry-run` prints it.
public struct HTTPRequestPlan: Sendable, Hashable {
  public var method: String
  /// Absolute URL with the query string already encoded.
  public var url: String
  /// Header fields in send order (names as written).
  public var headers: [HeaderField]
  public var body: RequestBody
  /// Values that must be masked wherever this plan is shown (API keys in the URL, secret params).
  public var secrets: [String]
  /// Lower-case names of the headers that carry credentials beyond `CredentialHeaders.isCredential`
  /// (a registry API-key header, secret header parameters, headers filled from `${env:...}`):
  /// dropped, with those, when a redirect leaves the origin.
  public var credentialHeaders: Set<String>
  /// `API.ENDPOINT` of the registry endpoint this request calls, for hints that point to
  /// `apx describe`; nil for an ad-hoc URL and for apx's own requests (tokens, documents).
  public var endpointName: String?

  public init(
    method: String, url: String, headers: [HeaderField] = [], body: RequestBody = .none, secrets: [String] = [],
    credentialHeaders: Set<String> = [], endpointName: String? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.secrets = secrets
    self.credentialHeaders = credentialHeaders
    self.endpointName = endpointName
  }

  /// Whether the header of this name carries a credential (by its name, or because apx put one in it).
  public func carriesCredential(_ name: String) -> Bool {
    CredentialHeaders.isCredential(name) || credentialHeaders.contains(name.lowercased())
  }

  /// The first header with this name (case-insensitive).
  public func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// Sets (replacing) a header.
  public mutating func setHeader(_ name: String, _ value: String) {
    headers.removeAll { $0.name.lowercased() == name.lowercased() }
    headers.append(HeaderField(name, value))
  }
}

/// A request body, described rather than materialised: files stay on disk
/// until the transport streams them.
public enum RequestBody: Sendable, Hashable {
  case none
  case bytes([UInt8], contentType: String)
  /// A whole file as the body.
  case file(path: String, contentType: String)
  /// The process's standard input as the body.
  case stdin(contentType: String)
  case multipart([MultipartPart], boundary: String)

  /// The Content-Type this body is sent with.
  public var contentType: String? {
    switch self {
    case .none: nil
    case .bytes(_, let t), .file(_, let t), .stdin(let t): t
    case .multipart(_, let boundary): "multipart/form-data; boundary=\(boundary)"
    }
  }
}

/// One part of a multipart/form-data body.
public enum MultipartPart: Sendable, Hashable {
  /// A text part; `contentType` nil sends none (text/plain, RFC 7578).
  case field(name: String, value: String, contentType: String? = nil)
  case file(name: String, path: String, filename: String, contentType: String)

  /// The part's header block, CRLF-terminated, after the boundary line.
  public var headerBlock: String {
    switch self {
    case .field(let name, _, let type):
      return "Content-Disposition: form-data; name=\"\(Self.quote(name))\"\r\n"
        + (type.map { "Content-Type: \(Self.quote($0))\r\n" } ?? "") + "\r\n"
    case .file(let name, _, let filename, let type):
      return "Content-Disposition: form-data; name=\"\(Self.quote(name))\"; filename=\"\(Self.quote(filename))\"\r\n"
        + "Content-Type: \(type)\r\n\r\n"
    }
  }

  static func quote(_ s: String) -> String {
    var out = ""
    // Scalars, not Characters: "\r\n" is one Character and would slip through a Character match.
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "%22"
      case "\r": out += "%0D"
      case "\n": out += "%0A"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
