#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A JSON value as the JSON-RPC demo reads it: decoded by Foundation's strict
/// `JSONDecoder` (no number text kept: the demo only needs values to compute with).
indirect enum DemoJSON: Decodable, Sendable, Equatable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([DemoJSON])
  case object([String: DemoJSON])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Int.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([DemoJSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: DemoJSON].self))
    }
  }

  /// Parses a whole document; nil when it is not JSON.
  static func parse(_ data: Data) -> DemoJSON? {
    try? JSONDecoder().decode(DemoJSON.self, from: data)
  }

  /// The value as a number, if it is one.
  var number: Double? {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }

  /// The value as JSON text for answers (ids, echoed values).
  var text: JSONText {
    switch self {
    case .null: .null
    case .bool(let value): .bool(value)
    case .int(let value): .int(value)
    case .double(let value): .double(value)
    case .string(let value): .string(value)
    case .array(let items): .array(items.map(\.text))
    case .object(let members): .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.text) })
    }
  }
}
