/// The ANSI colour scheme used when printing JSON to a terminal.
///
/// Each field holds the SGR parameters (the part between `ESC[` and `m`), e.g.
/// `"34;1"` for bold blue. An empty string leaves that kind of token uncoloured.
/// Pass `nil` instead of a `JSONColors` to printers to disable colour entirely:
/// no escape codes are written then.
public struct JSONColors: Sendable, Hashable {
  /// Object keys, including their quotes.
  public var key: String
  /// String values, including their quotes.
  public var string: String
  /// Number values.
  public var number: String
  /// `true` and `false`.
  public var bool: String
  /// `null`.
  public var null: String
  /// Brackets, braces, commas and colons.
  public var punctuation: String

  /// Makes a scheme from SGR parameter strings.
  public init(
    key: String, string: String, number: String, bool: String, null: String,
    punctuation: String = ""
  ) {
    self.key = key
    self.string = string
    self.number = number
    self.bool = bool
    self.null = null
    self.punctuation = punctuation
  }

  /// Bold blue keys, green strings, cyan numbers, yellow booleans, grey null.
  public static let `default` = JSONColors(
    key: "34;1", string: "32", number: "36", bool: "33", null: "90")

  /// The scheme as ready-to-write byte sequences (start code per token kind, reset).
  var codes: JSONColorCodes { JSONColorCodes(self) }
}

/// Pre-rendered escape sequences for a `JSONColors`, so printers write bytes
/// without building strings per token.
struct JSONColorCodes: Sendable {
  var key: [UInt8]
  var string: [UInt8]
  var number: [UInt8]
  var bool: [UInt8]
  var null: [UInt8]
  var punctuation: [UInt8]
  /// `ESC[0m`.
  static let reset: [UInt8] = [0x1B, 0x5B, 0x30, 0x6D]

  init(_ colors: JSONColors) {
    func code(_ sgr: String) -> [UInt8] {
      sgr.isEmpty ? [] : [0x1B, 0x5B] + Array(sgr.utf8) + [0x6D]
    }
    key = code(colors.key)
    string = code(colors.string)
    number = code(colors.number)
    bool = code(colors.bool)
    null = code(colors.null)
    punctuation = code(colors.punctuation)
  }
}
