import APXCore
import Foundation

/// Masks secrets before anything is shown: header values of sensitive
/// headers and every known secret value wherever it appears in text.
public struct SecretMask: Sendable {
  /// Header names whose values are always masked.
  public static let sensitiveHeaders: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
  ]

  /// Literal values to mask anywhere (tokens, keys, passwords, secret params).
  public private(set) var secrets: [String]
  /// Extra header names to mask (an API key header named by the registry).
  public private(set) var extraHeaders: Set<String>

  public init(secrets: [String] = [], extraHeaders: Set<String> = []) {
    self.secrets = []
    self.extraHeaders = Set(extraHeaders.map { $0.lowercased() })
    for s in secrets { add(s) }
  }

  /// Registers one more secret value (ignored when too short to mask meaningfully).
  public mutating func add(_ secret: String) {
    guard secret.count >= 3, !secrets.contains(secret) else { return }
    secrets.append(secret)
    // Longest first, so a secret containing another is masked whole.
    secrets.sort { $0.count > $1.count }
  }

  /// Registers a header name whose values must be masked.
  public mutating func addHeader(_ name: String) { extraHeaders.insert(name.lowercased()) }

  /// `text` with every known secret replaced by `***`.
  public func mask(_ text: String) -> String {
    var out = text
    for s in secrets where out.contains(s) {
      out = out.replacingOccurrences(of: s, with: "***")
      let encoded = PercentEncoding.encode(s, allowed: .queryComponent)
      if encoded != s { out = out.replacingOccurrences(of: encoded, with: "***") }
    }
    return out
  }

  /// Headers with sensitive values masked (`Authorization: Bearer ***`).
  public func mask(_ headers: [HeaderField]) -> [HeaderField] {
    headers.map { h in
      let name = h.name.lowercased()
      if Self.sensitiveHeaders.contains(name) || extraHeaders.contains(name) {
        if name == "authorization" || name == "proxy-authorization", let space = h.value.firstIndex(of: " ") {
          return HeaderField(h.name, String(h.value[..<space]) + " ***")
        }
        return HeaderField(h.name, "***")
      }
      return HeaderField(h.name, mask(h.value))
    }
  }
}
