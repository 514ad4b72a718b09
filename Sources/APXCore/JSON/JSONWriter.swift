/// Writes JSON text straight into bytes, one member or element at a time, for documents whose
/// shape the caller knows (an HTTP archive): no `JSONValue` tree is built, and the
/// text is laid out exactly as `JSONPrinter` (without colour) prints the same value.
///
/// Calls must nest: `key(_:)` only directly inside an object, and each key is followed by one
/// value (a scalar, `value(_:)`, or a container begun and ended).
public struct JSONWriter: Sendable {
  /// The text written so far.
  public private(set) var bytes: [UInt8] = []
  private let style: JSONOutputStyle
  /// The nesting of the value written at the top (its inner lines are indented by one more).
  private let baseDepth: Int
  /// For each open container, whether it holds a member or element yet.
  private var filled: [Bool] = []
  /// A key was written and its value not yet.
  private var afterKey = false

  /// A writer laying out text in `style`, as `JSONPrinter` prints a value nested `depth` deep.
  public init(style: JSONOutputStyle = .pretty, depth: Int = 0, capacity: Int = 0) {
    self.style = style
    self.baseDepth = depth
    bytes.reserveCapacity(capacity)
  }

  /// A writer that continues `bytes` (a buffer whose text stays as it is), so a document of
  /// many parts is written without copying each part.
  public init(appendingTo bytes: [UInt8], style: JSONOutputStyle = .pretty, depth: Int = 0) {
    self.style = style
    self.baseDepth = depth
    self.bytes = bytes
  }

  /// Begins an object: members follow, then `endObject()`.
  public mutating func beginObject() { open(UInt8(ascii: "{")) }

  /// Ends the innermost object.
  public mutating func endObject() { close(UInt8(ascii: "}")) }

  /// Begins an array: elements follow, then `endArray()`.
  public mutating func beginArray() { open(UInt8(ascii: "[")) }

  /// Ends the innermost array.
  public mutating func endArray() { close(UInt8(ascii: "]")) }

  /// Writes an object member's key; its value comes next.
  public mutating func key(_ name: String) {
    startItem()
    JSONStringEscaper.appendQuoted(name, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    if style == .pretty { bytes.append(0x20) }
    afterKey = true
  }

  /// Writes a string value.
  public mutating func string(_ text: String) {
    startValue()
    JSONStringEscaper.appendQuoted(text, to: &bytes)
  }

  /// Writes a string value from its UTF-8 bytes, which the caller has checked are valid.
  public mutating func string(utf8 text: [UInt8]) {
    startValue()
    bytes.append(0x22)
    text.withUnsafeBufferPointer { JSONStringEscaper.appendEscaped($0, to: &bytes) }
    bytes.append(0x22)
  }

  /// Writes an integer value.
  public mutating func int(_ n: Int) {
    startValue()
    bytes.append(contentsOf: String(n).utf8)
  }

  /// Writes a number value from its JSON text (a valid JSON number, written unchanged).
  public mutating func number(_ text: String) {
    startValue()
    bytes.append(contentsOf: text.utf8)
  }

  /// Writes `value` as `JSONPrinter` prints it at this place.
  public mutating func value(_ value: JSONValue) {
    startValue()
    JSONPrinter(style: style).write(value, depth: nesting, into: &bytes)
  }

  /// Writes a value whose text is ready: `JSONWriter` text begun with `depth` equal to the
  /// nesting here (`depth` plus the containers open), so its lines line up.
  public mutating func text(_ json: ArraySlice<UInt8>) {
    startValue()
    bytes.append(contentsOf: json)
  }

  /// Ends the document's last line (`\n`), after its top value.
  public mutating func endLine() { bytes.append(0x0A) }

  /// The nesting of the next value: the writer's `depth` plus the containers open.
  public var nesting: Int { baseDepth + filled.count }

  /// Writes `name` and a string value.
  public mutating func member(_ name: String, _ text: String) {
    key(name)
    string(text)
  }

  /// Writes `name` and an integer value.
  public mutating func member(_ name: String, _ n: Int) {
    key(name)
    int(n)
  }

  private mutating func open(_ bracket: UInt8) {
    startValue()
    bytes.append(bracket)
    filled.append(false)
  }

  private mutating func close(_ bracket: UInt8) {
    if filled.removeLast() { newline(depth: baseDepth + filled.count) }
    bytes.append(bracket)
  }

  /// Before a value: nothing after a key, else the separator and line of an array element.
  @inline(__always)
  private mutating func startValue() {
    if afterKey {
      afterKey = false
    } else {
      startItem()
    }
  }

  /// The comma and new line before a container's member or element (none at the top).
  @inline(__always)
  private mutating func startItem() {
    guard let last = filled.indices.last else { return }
    if filled[last] { bytes.append(UInt8(ascii: ",")) }
    filled[last] = true
    newline(depth: baseDepth + filled.count)
  }

  @inline(__always)
  private mutating func newline(depth: Int) {
    guard style == .pretty else { return }
    bytes.append(0x0A)
    JSONLiterals.appendIndent(depth: depth, to: &bytes)
  }
}
