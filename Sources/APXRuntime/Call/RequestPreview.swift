public import APXCore

/// What a call would send, resolved exactly as `Executor.call` resolves its
/// first attempt (templates, registry headers, auth, `-H`), for
/// `apx call --dry-run` and `--curl`. Secrets are kept, with the mask that
/// hides them: the caller decides whether to show them.
public enum RequestPreview: Sendable {
  /// REST, SSE or JSON-RPC: one HTTP request.
  case http(HTTPRequestPreview)
  /// One gRPC call.
  case grpc(GRPCRequestPreview)
}

/// An HTTP request apx would send.
public struct HTTPRequestPreview: Sendable {
  /// `rest`, `sse` or `jsonrpc`.
  public var kind: EndpointKind
  /// Method, URL (query encoded), headers in send order and the body (files by path, not read).
  public var plan: HTTPRequestPlan
  /// Hides the secrets of `plan` (credentials, secret parameters, `${env:...}` values).
  public var mask: SecretMask

  public init(kind: EndpointKind, plan: HTTPRequestPlan, mask: SecretMask = SecretMask()) {
    self.kind = kind
    self.plan = plan
    self.mask = mask
  }
}

/// A gRPC call apx would make.
public struct GRPCRequestPreview: Sendable {
  /// The request messages.
  public enum Messages: Sendable {
    /// One message (unary and server-streaming methods).
    case single(JSONValue)
    /// A client stream whose messages are known (`-d '[...]'`, `-d @file`).
    case stream([JSONValue])
    /// A client stream read from stdin as it arrives (NDJSON), with these fields set on each message.
    case stdin(fields: JSONValue)
  }

  /// The server: `grpc://` (plaintext) or `grpcs://` (TLS).
  public var target: GRPCTarget
  /// Fully qualified service, e.g. `classnotes.v1.ClassNotesAPI`.
  public var service: String
  public var method: String
  /// Metadata in send order (lower-case names): registry headers, `-H`, credentials.
  public var metadata: [HeaderField]
  /// `-H` names gRPC sets itself, which the call leaves out.
  public var ignoredMetadata: [String]
  public var messages: Messages
  /// Where the schema comes from, with paths made absolute.
  public var schema: SchemaSource
  /// Whether the messages were checked against the schema (false for server
  /// reflection: a dry run asks the server nothing).
  public var checked: Bool
  /// Hides the secrets of the metadata and messages.
  public var mask: SecretMask
}
