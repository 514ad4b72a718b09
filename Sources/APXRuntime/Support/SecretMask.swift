public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Masks secrets before anything is shown: header values of sensitive
/// headers and every known secret value wherever it appears in text.
public struct SecretMask: Sendable {

  /// Literal values to mask anywhere (tokens, keys, passwords, secret params).
  public private(set) var secrets: [String]
  /// Every form in which a secret may appear in text: as given, and as apx or a server encodes
  /// it (percent with upper- or lower-case hex, form `+` for space, JSON string escapes);
  /// longest first, so a secret containing another is masked whole.
  private var forms: [String] = []
  /// Extra header names to mask (an API key header named by the registry).
  public private(set) var extraHeaders: Set<String>
  /// Query parameters whose values are masked in any URL in text (an API key sent in the
  /// query: a server's next-page link may encode it in a form `encodings(of:)` does not list).
  public private(set) var queryParameters: [String] = []

  public init(secrets: [String] = [], extraHeaders: Set<String> = []) {
    self.secrets = []
    self.extraHeaders = Set(extraHeaders.map { $0.lowercased() })
    for s in secrets { add(s) }
  }

  /// Registers one more secret value (ignored when too short to mask meaningfully).
  public mutating func add(_ secret: String) {
    guard secret.count >= 3, !secrets.contains(secret) else { return }
    secrets.append(secret)
    for form in Self.encodings(of: secret) where !forms.contains(form) { forms.append(form) }
    forms.sort { $0.count > $1.count }
  }

  /// The texts `secret` may be shown as: the value itself, percent-encoded as apx sends it in a
  /// query, path or form (`AbC+dEf/GhI=` as `AbC%2BdEf%2FGhI%3D`), the same with lower-case hex
  /// and with `+` for spaces (as servers echo a form), and escaped inside a JSON string, once or
  /// twice (a JSON document carried as a string inside another, as an error body often is).
  static func encodings(of secret: String) -> [String] {
    let percent = PercentEncoding.encode(secret, allowed: .queryComponent)
    // JSON escapes of `"` and `\`, with and without the optional `\/`.
    let json = jsonEscaped(secret)
    let jsonSlash = json.replacingEach("/", with: "\\/")
    return [
      secret, percent, Self.lowercasingHex(percent), percent.replacing("%20", with: "+"),
      json, jsonSlash, jsonEscaped(json), jsonEscaped(jsonSlash),
    ].filter { $0.count >= 3 }
  }

  /// `text` with `"` and `\` escaped as inside a JSON string.
  static func jsonEscaped(_ text: String) -> String {
    var json = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": json += "\\\""
      case "\\": json += "\\\\"
      default: json.unicodeScalars.append(scalar)
      }
    }
    return json
  }

  /// `%2B` as `%2b`: percent escapes with lower-case hex digits.
  static func lowercasingHex(_ encoded: String) -> String {
    var out = ""
    var pending = 0
    for ch in encoded {
      if ch == "%" {
        pending = 2
        out.append(ch)
      } else if pending > 0 {
        pending -= 1
        out += ch.lowercased()
      } else {
        out.append(ch)
      }
    }
    return out
  }

  /// Registers the values of the credential headers among `headers` (`-H`, `Name:value` items,
  /// `-a`): without this only their names were known, so a server that echoed one in its error
  /// body or a response header showed it. For `Scheme token` the token too; for `Basic` the
  /// decoded `user:password` and the password; for `Cookie` each cookie's value.
  public mutating func addCredentialValues(of headers: [HeaderField]) {
    for header in headers
    where CredentialHeaders.isCredential(header.name) || extraHeaders.contains(header.name.lowercased()) {
      let value = header.value.trimmingWhitespace()
      add(value)
      if header.name.lowercased() == "cookie" {
        for pair in value.split(separator: ";") {
          if let eq = pair.firstIndex(of: "=") { add(String(pair[pair.index(after: eq)...]).trimmingWhitespace()) }
        }
        continue
      }
      guard let space = value.firstIndex(of: " ") else { continue }
      let token = String(value[value.index(after: space)...]).trimmingWhitespace()
      add(token)
      guard value[..<space].lowercased() == "basic", let data = Data(base64Encoded: token),
        let decoded = String(data: data, encoding: .utf8)
      else { continue }
      add(decoded)
      if let colon = decoded.firstIndex(of: ":") { add(String(decoded[decoded.index(after: colon)...])) }
    }
  }

  /// Registers the values of the `Cookie` headers a cookie jar attached: those of 8 characters
  /// or more, as session ids are. A jar also sends the short values servers set beside them
  /// (`consent=true`, `lang=en`), which masked would blank every `true` in an archive.
  public mutating func addSessionCookies(of headers: [HeaderField]) {
    for header in headers where header.name.lowercased() == "cookie" {
      for pair in header.value.split(separator: ";") {
        guard let eq = pair.firstIndex(of: "=") else { continue }
        let value = String(pair[pair.index(after: eq)...]).trimmingWhitespace()
        if value.count >= 8 { add(value) }
      }
    }
  }

  /// Registers a header name whose values must be masked.
  public mutating func addHeader(_ name: String) { extraHeaders.insert(name.lowercased()) }

  /// Registers a query parameter whose values must be masked wherever a URL shows it.
  public mutating func addQueryParameter(_ name: String) {
    guard !name.isEmpty else { return }
    for form in [name, PercentEncoding.encode(name, allowed: .queryComponent)] where !queryParameters.contains(form) {
      queryParameters.append(form)
    }
  }

  /// `text` with the value of every `?NAME=` or `&NAME=` pair of a registered name replaced by `***`.
  static func maskQueryValues(_ text: String, names: [String]) -> String {
    var bytes = Array(text.utf8)
    var changed = false
    for name in names {
      let pattern = Array((name + "=").utf8)
      var i = 1
      while i + pattern.count <= bytes.count {
        guard bytes[i - 1] == UInt8(ascii: "?") || bytes[i - 1] == UInt8(ascii: "&"),
          bytes[i..<i + pattern.count].elementsEqual(pattern)
        else {
          i += 1
          continue
        }
        let start = i + pattern.count
        var end = start
        while end < bytes.count, !Self.endsQueryValue(bytes[end]) { end += 1 }
        if !bytes[start..<end].elementsEqual("***".utf8) {
          bytes.replaceSubrange(start..<end, with: "***".utf8)
          changed = true
        }
        i = start + 3
      }
    }
    return changed ? String(decoding: bytes, as: UTF8.self) : text
  }

  /// Bytes that end a query value where a URL is shown: the next pair or the fragment, and what
  /// surrounds a URL in headers, logs and JSON (space, quotes, angle brackets, line ends). Not
  /// `;`, `,` or `\`: a server may leave them unencoded inside the value, which would then show.
  private static func endsQueryValue(_ b: UInt8) -> Bool {
    switch b {
    case UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"),
      UInt8(ascii: "\n"), UInt8(ascii: ">"), UInt8(ascii: "<"), UInt8(ascii: "\""), UInt8(ascii: "'"):
      return true
    default:
      return false
    }
  }

  /// Whether `mask(_:)` can change a text: false when no secret value nor query parameter is
  /// known, so that a caller may skip making a `String` only to have it returned unchanged.
  public var masksText: Bool { !forms.isEmpty || !queryParameters.isEmpty }

  /// `text` with every known secret, in any of its encodings, replaced by `***`.
  public func mask(_ text: String) -> String {
    var out = text
    for form in forms {
      out = out.replacingUTF8(form, with: "***")
    }
    if !queryParameters.isEmpty { out = Self.maskQueryValues(out, names: queryParameters) }
    return out
  }

  /// `bytes` that are not UTF-8 text (an archive's base64 body) with every known secret, in any
  /// of its encodings, replaced by `***`, byte for byte.
  public func mask(bytes: [UInt8]) -> [UInt8] {
    var out = bytes
    for form in forms {
      let pattern = Array(form.utf8)
      guard let first = pattern.first, pattern.count <= out.count else { continue }
      var masked: [UInt8] = []
      masked.reserveCapacity(out.count)
      var i = 0
      var changed = false
      while i < out.count {
        if out[i] == first, i + pattern.count <= out.count, out[i..<i + pattern.count].elementsEqual(pattern) {
          masked.append(contentsOf: "***".utf8)
          i += pattern.count
          changed = true
        } else {
          masked.append(out[i])
          i += 1
        }
      }
      if changed { out = masked }
    }
    return out
  }

  /// `value` with every known secret masked in each of its strings (an answer may echo one).
  public func mask(_ value: JSONValue) -> JSONValue {
    switch value {
    case .string(let s): .string(mask(s))
    case .array(let items): .array(items.map { mask($0) })
    case .object(let members): .object(members.map { JSONMember($0.key, mask($0.value)) })
    default: value
    }
  }

  /// Headers with sensitive values masked (`Authorization: Bearer ***`).
  public func mask(_ headers: [HeaderField]) -> [HeaderField] {
    headers.map { h in
      let name = h.name.lowercased()
      if CredentialHeaders.isCredential(name) || extraHeaders.contains(name) {
        if name == "authorization" || name == "proxy-authorization", let space = h.value.firstIndex(of: " ") {
          return HeaderField(h.name, String(h.value[..<space]) + " ***")
        }
        return HeaderField(h.name, "***")
      }
      return HeaderField(h.name, mask(h.value))
    }
  }
}
