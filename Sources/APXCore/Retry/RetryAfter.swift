/// The `Retry-After` response header (RFC 9110 §10.2.3).
public enum RetryAfter {
  /// Seconds to wait before retrying, never negative, or nil when `value` is
  /// neither form (the header is then ignored and the policy's backoff used).
  ///
  /// - delta-seconds (`120`): that many seconds. A decimal fraction (`1.5`),
  ///   which some servers send, is accepted too.
  /// - HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`, or the obsolete RFC 850
  ///   and asctime forms): the time from `now` until then, 0 if already past.
  ///
  /// - Parameter now: the current time in seconds since 1970-01-01T00:00:00Z.
  public static func seconds(from value: String, now: Double) -> Double? {
    if let delta = deltaSeconds(value) { return delta }
    guard let date = HTTPDate.parse(value, now: now) else { return nil }
    let wait = date - now
    return wait > 0 ? wait : 0  // also maps a NaN `now` to 0
  }

  /// `1*DIGIT [ "." 1*DIGIT ]` between optional spaces and tabs.
  static func deltaSeconds(_ value: String) -> Double? {
    var bytes = Substring(value).utf8[...]
    while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
    while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
    var whole = 0.0
    var fraction = 0.0
    var scale = 1.0
    var sawDigit = false
    var sawPoint = false
    var digitsAfterPoint = 0
    for byte in bytes {
      if byte >= 0x30, byte <= 0x39 {
        let digit = Double(byte - 0x30)
        if sawPoint {
          scale /= 10
          fraction += digit * scale
          digitsAfterPoint += 1
        } else {
          whole = whole * 10 + digit  // huge values grow toward infinity, never trap
          sawDigit = true
        }
      } else if byte == 0x2E, !sawPoint, sawDigit {
        sawPoint = true
      } else {
        return nil
      }
    }
    guard sawDigit, !sawPoint || digitsAfterPoint > 0 else { return nil }
    let total = whole + fraction
    return total.isFinite ? total : Double.greatestFiniteMagnitude
  }
}
