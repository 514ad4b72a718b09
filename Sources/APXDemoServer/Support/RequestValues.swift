import HTTPTypes
import Hummingbird

/// Typed, validated access to query parameters and headers.
extension Request {
  /// The query parameter `name`, or nil when absent or empty.
  func query(_ name: String) -> String? {
    guard let value = uri.queryParameters[name[...]], !value.isEmpty else { return nil }
    return String(value)
  }

  /// The integer query parameter `name` within `range`, `fallback` when absent; a 400 error otherwise.
  func intQuery(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws -> Int {
    guard let text = query(name) else { return fallback }
    guard let value = Int(text), range.contains(value) else {
      throw DemoError.badRequest(
        "invalid_parameter",
        "query parameter '\(name)' must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
    }
    return value
  }

  /// The number query parameter `name` within `range`, nil when absent; a 400 error otherwise.
  func doubleQuery(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
    guard let text = query(name) else { return nil }
    guard let value = Double(text), range.contains(value) else {
      throw DemoError.badRequest(
        "invalid_parameter",
        "query parameter '\(name)' must be a number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
    }
    return value
  }

  /// The header `name` (case-insensitive), or nil when absent or empty.
  func header(_ name: String) -> String? {
    guard let fieldName = HTTPField.Name(name), let value = headers[fieldName], !value.isEmpty else {
      return nil
    }
    return value
  }
}
