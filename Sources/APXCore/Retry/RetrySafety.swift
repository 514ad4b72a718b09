/// Whether repeating a request cannot apply its effect twice.
///
/// GET, HEAD, OPTIONS, TRACE (safe) and PUT, DELETE (idempotent by RFC 9110
/// §9.2.2) are always retry-safe. Any other method (POST, PATCH, …) is only
/// when the endpoint is marked idempotent or the request carries an
/// `Idempotency-Key` header, which lets the server de-duplicate it.
///
/// A caller that knows the request never left (the connection was refused
/// before any byte was sent) may treat it as safe regardless.
///
/// - Parameters:
///   - method: the HTTP method, compared case-insensitively.
///   - idempotent: the endpoint is declared idempotent in the registry.
///   - hasIdempotencyKey: the request has an `Idempotency-Key` header.
public func isRetrySafe(method: String, idempotent: Bool, hasIdempotencyKey: Bool) -> Bool {
  if idempotent || hasIdempotencyKey { return true }
  switch method.uppercased() {
  case "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE": return true
  default: return false
  }
}
