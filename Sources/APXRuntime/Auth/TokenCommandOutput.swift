import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a token command printed: the token, and its expiry when the command
/// reported one. Plain text is the token itself (`gcloud auth print-access-token`);
/// a JSON object gives the token in `access_token`, `accessToken` or `token`,
/// and the expiry as `expires_in` seconds or an absolute time in `expires_at`,
/// `expiry`, `expires_on`, `expiresOn`, `expiration` or `expireTime` (epoch
/// seconds or milliseconds, or an ISO 8601 date).
struct TokenCommandOutput: Sendable, Equatable {
  var token: String
  /// Seconds since 1970, when reported.
  var expiresAt: Double?

  static let tokenKeys = ["access_token", "accessToken", "token", "id_token"]
  static let lifetimeKeys = ["expires_in", "expiresIn"]
  static let expiryKeys = [
    "expires_at", "expiresAt", "expiry", "expires_on", "expiresOn", "expiration", "expirationTime",
    "expiration_time", "expireTime", "expire_time", "token_expiry",
  ]

  /// Parses the command's stdout; nil when it holds no token.
  static func parse(_ text: String, now: Double) -> TokenCommandOutput? {
    let trimmed = text.trimmingWhitespaceAndNewlines()
    if trimmed.hasPrefix("{"), let json = try? JSONParser.parse(Array(trimmed.utf8)) {
      guard let token = tokenKeys.lazy.compactMap({ json[$0]?.stringValue }).first(where: { !$0.isEmpty }) else {
        return nil
      }
      return TokenCommandOutput(token: token, expiresAt: expiry(json, now: now))
    }
    // Some tools print notices before the token: the token is the last line.
    guard let line = trimmed.split(whereSeparator: \.isNewline).last.map({ $0.trimmingWhitespace() }),
      !line.isEmpty, !line.contains(" ")
    else { return nil }
    return TokenCommandOutput(token: line, expiresAt: nil)
  }

  static func expiry(_ json: JSONValue, now: Double) -> Double? {
    for key in lifetimeKeys {
      if let seconds = json[key].flatMap(number), seconds > 0 { return now + seconds }
    }
    for key in expiryKeys {
      guard let value = json[key] else { continue }
      if let epoch = number(value) { return epoch > 100_000_000_000 ? epoch / 1000 : epoch }
      if let text = value.stringValue, let date = isoDate(text) { return date }
    }
    return nil
  }

  private static func number(_ value: JSONValue) -> Double? {
    let n = value.doubleValue ?? value.stringValue.flatMap { Double($0.trimmingWhitespace()) }
    return n.flatMap { $0.isFinite ? $0 : nil }
  }

  /// `2026-11-21T10:00:00Z`, with or without fractional seconds, or with a space instead of `T`.
  static func isoDate(_ text: String) -> Double? {
    let normalized = text.trimmingWhitespace().replacingEach(" ", with: "T")
    if let date = try? Date.ISO8601FormatStyle().parse(normalized) { return date.timeIntervalSince1970 }
    let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    return (try? fractional.parse(normalized))?.timeIntervalSince1970
  }
}
