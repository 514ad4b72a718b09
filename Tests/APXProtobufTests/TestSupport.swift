import APXCore
import APXProtobuf
import Foundation
import Testing

/// Loads the committed fixtures (made by scripts/protobuf-fixtures/generate.py).
enum Fixtures {
  static var directory: URL? { Bundle.module.resourceURL?.appendingPathComponent("Fixtures") }

  static func bytes(_ name: String) throws -> [UInt8] {
    guard let url = directory?.appendingPathComponent(name) else {
      throw FixtureError("fixtures folder not found in the test bundle")
    }
    return [UInt8](try Data(contentsOf: url))
  }

  static func json(_ name: String) throws -> JSONValue {
    try JSONParser.parse(try bytes(name))
  }

  /// The pool of apxtest.proto and its imports, built once.
  static let pool: DescriptorPool? = try? DescriptorPool(protoset: bytes("apxtest.protoset"))

  static func requirePool() throws -> DescriptorPool {
    guard let pool else { throw FixtureError("apxtest.protoset did not load") }
    return pool
  }

  static func hex(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    var it = text.utf8.makeIterator()
    func nibble(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : (c | 0x20) - 87 }
    while let hi = it.next(), let lo = it.next() { out.append(nibble(hi) << 4 | nibble(lo)) }
    return out
  }

  static func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }
}

struct FixtureError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// One fixture entry, named for test output.
struct FixtureCase: Sendable, CustomTestStringConvertible {
  var name: String
  var value: JSONValue
  var testDescription: String { name }

  subscript(_ key: String) -> JSONValue? { value[key] }
  func string(_ key: String) -> String { value[key]?.stringValue ?? "" }

  static func load(_ file: String) -> [FixtureCase] {
    guard let list = (try? Fixtures.json(file))?.arrayValue else { return [] }
    return list.map { FixtureCase(name: $0["name"]?.stringValue ?? "?", value: $0) }
  }
}

/// Structural JSON equality: object member order is ignored (JSON objects are
/// unordered and protobuf map order is unspecified) and numbers are compared by
/// value, since `1.0` and `1`, or `1e+16` and `10000000000000000.0`, are the same number.
func jsonEquivalent(_ a: JSONValue, _ b: JSONValue) -> Bool {
  switch (a, b) {
  case (.null, .null): return true
  case (.bool(let x), .bool(let y)): return x == y
  case (.string(let x), .string(let y)): return x == y
  case (.number(let x), .number(let y)):
    if x == y { return true }
    guard let dx = Double(x), let dy = Double(y) else { return false }
    return dx == dy && dx.sign == dy.sign
  case (.array(let x), .array(let y)):
    return x.count == y.count && zip(x, y).allSatisfy { jsonEquivalent($0, $1) }
  case (.object(let x), .object(let y)):
    guard x.count == y.count else { return false }
    for member in x {
      guard let other = y.first(where: { $0.key == member.key }), jsonEquivalent(member.value, other.value) else {
        return false
      }
    }
    return true
  default: return false
  }
}

/// Numbers whose text differs between two equivalent values (`path: ours vs theirs`).
func numberTextDifferences(_ a: JSONValue, _ b: JSONValue, path: String = "") -> [String] {
  switch (a, b) {
  case (.number(let x), .number(let y)) where x != y: return ["\(path): \(x) vs \(y)"]
  case (.array(let x), .array(let y)):
    return zip(x, y).enumerated().flatMap { numberTextDifferences($1.0, $1.1, path: path + "[\($0)]") }
  case (.object(let x), .object(let y)):
    return x.flatMap { m in
      y.first(where: { $0.key == m.key }).map { numberTextDifferences(m.value, $0.value, path: path + "." + m.key) }
        ?? []
    }
  default: return []
  }
}

/// Compact JSON text for failure messages.
func text(_ value: JSONValue) -> String {
  switch value {
  case .null: return "null"
  case .bool(let b): return b ? "true" : "false"
  case .number(let n): return n
  case .string(let s):
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default: out += u.value < 0x20 ? "\\u" + String(format: "%04x", u.value) : String(u)
      }
    }
    return out + "\""
  case .array(let items): return "[" + items.map(text).joined(separator: ",") + "]"
  case .object(let members):
    return "{" + members.map { text(.string($0.key)) + ":" + text($0.value) }.joined(separator: ",") + "}"
  }
}
