/// Numbers in messages without trapping: `Int(1e300)` and `Int(.nan)` trap,
/// and such values reach messages from flags, files and servers.
public enum NumberText {
  /// `3` for a whole number within ±1e15, else Swift's shortest text
  /// (`1.5`, `1e+300`, `inf`, `nan`).
  public static func plain(_ value: Double) -> String {
    if value.isFinite, value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }

  /// `value` with one decimal (`12.3`) within ±1e15, else `plain(_:)`.
  public static func oneDecimal(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return plain(value) }
    let tenths = Int64((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let magnitude = tenths.magnitude
    return "\(sign)\(magnitude / 10).\(magnitude % 10)"
  }

  /// `512 B`, `12.5 kB`, `3.1 MB`, `1.2 GB` (powers of 1000, as curl and browsers show rates).
  public static func bytes(_ value: Double) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"]
    var scaled = value
    var unit = 0
    while scaled >= 1000, unit < units.count - 1 {
      scaled /= 1000
      unit += 1
    }
    return (unit == 0 ? plain(scaled.rounded()) : oneDecimal(scaled)) + " " + units[unit]
  }
}
