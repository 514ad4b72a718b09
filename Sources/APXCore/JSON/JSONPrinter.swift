/// Turns a `JSONValue` back into JSON text, compact or pretty, optionally
/// coloured with ANSI escape codes.
///
/// Numbers print their stored text unchanged (`9007199254740993`, `1.10`, `-0`,
/// `1e400`), object members keep their order (duplicates included), strings are
/// escaped per RFC 8259. Output goes into a byte buffer; no per-token strings.
public struct JSONPrinter: Sendable {
  /// Compact or pretty layout.
  public var style: JSONOutputStyle
  /// The colour scheme, or `nil` for plain text without escape codes.
  public var colors: JSONColors? {
    get { storedColors }
    set {
      storedColors = newValue
      codes = newValue.map(JSONColorCodes.init)
    }
  }

  private var storedColors: JSONColors?
  private var codes: JSONColorCodes?

  /// Makes a printer with the given layout and colour scheme (`nil`: no colour).
  public init(style: JSONOutputStyle = .pretty, colors: JSONColors? = nil) {
    self.style = style
    self.storedColors = colors
    self.codes = colors.map(JSONColorCodes.init)
  }

  /// Appends the JSON text of `value` to `out`, without a trailing newline.
  public func write(_ value: JSONValue, into out: inout [UInt8]) {
    write(value, depth: 0, into: &out)
  }

  /// The JSON text of `value` as bytes, without a trailing newline.
  public func bytes(_ value: JSONValue) -> [UInt8] {
    var out: [UInt8] = []
    write(value, into: &out)
    return out
  }

  /// The JSON text of `value` as a string, without a trailing newline.
  public func string(_ value: JSONValue) -> String {
    String(decoding: bytes(value), as: UTF8.self)
  }

  /// Appends the JSON text of `value` as it prints nested `depth` deep in a larger document
  /// (pretty: its inner lines indented by `depth + 1` levels, its closing bracket by `depth`).
  public func write(_ value: JSONValue, depth: Int, into out: inout [UInt8]) {
    switch value {
    case .null:
      token(JSONLiterals.null, color: codes?.null, into: &out)
    case .bool(let b):
      token(b ? JSONLiterals.true : JSONLiterals.false, color: codes?.bool, into: &out)
    case .number(let text):
      begin(codes?.number, into: &out)
      out.append(contentsOf: text.utf8)
      end(codes?.number, into: &out)
    case .string(let s):
      begin(codes?.string, into: &out)
      JSONStringEscaper.appendQuoted(s, to: &out)
      end(codes?.string, into: &out)
    case .array(let items):
      punctuation(UInt8(ascii: "["), into: &out)
      if !items.isEmpty {
        for (i, item) in items.enumerated() {
          if i > 0 { punctuation(UInt8(ascii: ","), into: &out) }
          newline(depth: depth + 1, into: &out)
          write(item, depth: depth + 1, into: &out)
        }
        newline(depth: depth, into: &out)
      }
      punctuation(UInt8(ascii: "]"), into: &out)
    case .object(let members):
      punctuation(UInt8(ascii: "{"), into: &out)
      if !members.isEmpty {
        for (i, member) in members.enumerated() {
          if i > 0 { punctuation(UInt8(ascii: ","), into: &out) }
          newline(depth: depth + 1, into: &out)
          begin(codes?.key, into: &out)
          JSONStringEscaper.appendQuoted(member.key, to: &out)
          end(codes?.key, into: &out)
          punctuation(UInt8(ascii: ":"), into: &out)
          if style == .pretty { out.append(0x20) }
          write(member.value, depth: depth + 1, into: &out)
        }
        newline(depth: depth, into: &out)
      }
      punctuation(UInt8(ascii: "}"), into: &out)
    }
  }

  @inline(__always)
  private func newline(depth: Int, into out: inout [UInt8]) {
    guard style == .pretty else { return }
    out.append(0x0A)
    JSONLiterals.appendIndent(depth: depth, to: &out)
  }

  @inline(__always)
  private func punctuation(_ byte: UInt8, into out: inout [UInt8]) {
    begin(codes?.punctuation, into: &out)
    out.append(byte)
    end(codes?.punctuation, into: &out)
  }

  @inline(__always)
  private func token(_ bytes: [UInt8], color: [UInt8]?, into out: inout [UInt8]) {
    begin(color, into: &out)
    out.append(contentsOf: bytes)
    end(color, into: &out)
  }

  @inline(__always)
  private func begin(_ code: [UInt8]?, into out: inout [UInt8]) {
    if let code, !code.isEmpty { out.append(contentsOf: code) }
  }

  @inline(__always)
  private func end(_ code: [UInt8]?, into out: inout [UInt8]) {
    if let code, !code.isEmpty { out.append(contentsOf: JSONColorCodes.reset) }
  }
}

/// Byte constants shared by the printers.
enum JSONLiterals {
  static let `true`: [UInt8] = Array("true".utf8)
  static let `false`: [UInt8] = Array("false".utf8)
  static let null: [UInt8] = Array("null".utf8)
  /// Spaces copied in slices for indentation.
  static let spaces = [UInt8](repeating: 0x20, count: 256)

  /// Appends `2 * depth` spaces.
  @inline(__always)
  static func appendIndent(depth: Int, to out: inout [UInt8]) {
    var remaining = depth &* 2
    while remaining > 0 {
      let n = min(remaining, spaces.count)
      spaces.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<n])) }
      remaining -= n
    }
  }
}

extension JSONValue {
  /// Compact JSON text (`{"a":[1,2]}`), as used for NDJSON lines and interpolation.
  public var compactJSON: String { JSONPrinter(style: .compact).string(self) }

  /// Pretty JSON text with two-space indentation, without colour.
  public var prettyJSON: String { JSONPrinter(style: .pretty).string(self) }
}
