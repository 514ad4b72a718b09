/// Decodes the header blocks of one HTTP/2 connection (RFC 7541, HPACK): the static table, the
/// connection's dynamic table, integers, and plain or Huffman-coded strings.
///
/// Why by hand: see `HuffmanDecoder`; the rest follows from it (NIOHPACK's decoder cannot be
/// given another Huffman decoder).
struct HeaderBlockDecoder {
  /// The dynamic table size apx allows the server (SETTINGS_HEADER_TABLE_SIZE): the default,
  /// 4,096, which apx never changes (tests do, as a peer's SETTINGS would).
  var maxTableSize: Int {
    didSet {
      tableSize = min(tableSize, maxTableSize)
      evict(toFit: 0)
    }
  }
  /// The largest header list accepted: the sum of each field's name, value and 32 bytes.
  let maxHeaderListSize: Int
  /// The size the server last chose, at most `maxTableSize`.
  private var tableSize: Int
  /// The dynamic table, oldest first (index 62 is the last element).
  private var table: [(name: String, value: String)] = []
  private var tableBytes = 0

  init(maxTableSize: Int = 4_096, maxHeaderListSize: Int) {
    self.maxTableSize = maxTableSize
    self.maxHeaderListSize = maxHeaderListSize
    tableSize = maxTableSize
  }

  /// The fields of one whole header block (HEADERS and its CONTINUATIONs), in order.
  mutating func decode(_ block: [UInt8]) throws(HPACKError) -> [(name: String, value: String)] {
    var reader = Reader(bytes: block[...])
    var fields: [(name: String, value: String)] = []
    var listSize = 0
    var sawField = false
    while let first = reader.peek() {
      if first & 0x80 != 0 {  // indexed field (§6.1)
        fields.append(try entry(at: reader.integer(prefix: 7)))
      } else if first & 0xE0 == 0x20 {  // dynamic table size update (§6.3)
        guard !sawField else { throw HPACKError("a dynamic table size update after a header field") }
        let size = try reader.integer(prefix: 5)
        guard size <= maxTableSize else {
          throw HPACKError("a dynamic table size of \(size) bytes, above the \(maxTableSize) apx allows")
        }
        tableSize = size
        evict(toFit: 0)
        continue
      } else {
        // Literal fields (§6.2): with incremental indexing (01), without (0000), never indexed (0001).
        let indexing = first & 0xC0 == 0x40
        let nameIndex = try reader.integer(prefix: indexing ? 6 : 4)
        let name = nameIndex == 0 ? try reader.string() : try entry(at: nameIndex).name
        let field = (name: name, value: try reader.string())
        if indexing { insert(field) }
        fields.append(field)
      }
      sawField = true
      let last = fields[fields.count - 1]
      listSize += last.name.utf8.count + last.value.utf8.count + 32
      guard listSize <= maxHeaderListSize else {
        throw HPACKError("a header list larger than \(maxHeaderListSize) bytes")
      }
    }
    return fields
  }

  /// Static entries are 1...61; the dynamic table follows, newest first.
  private func entry(at index: Int) throws(HPACKError) -> (name: String, value: String) {
    let statics = HPACKTables.staticEntries
    if index >= 1 && index <= statics.count { return statics[index - 1] }
    let dynamic = index - statics.count
    guard index > 0, dynamic <= table.count else { throw HPACKError("header table index \(index) does not exist") }
    return table[table.count - dynamic]
  }

  private mutating func insert(_ field: (name: String, value: String)) {
    let size = field.name.utf8.count + field.value.utf8.count + 32
    evict(toFit: size)
    // An entry larger than the table empties it and is not kept (§4.4).
    guard size <= tableSize else { return }
    table.append(field)
    tableBytes += size
  }

  private mutating func evict(toFit size: Int) {
    var removed = 0
    while tableBytes + size > tableSize, removed < table.count {
      let oldest = table[removed]
      tableBytes -= oldest.name.utf8.count + oldest.value.utf8.count + 32
      removed += 1
    }
    table.removeFirst(removed)
  }

  /// Reads HPACK's primitives from a header block.
  private struct Reader {
    var bytes: ArraySlice<UInt8>

    func peek() -> UInt8? { bytes.first }

    /// An integer with an N-bit prefix (§5.1), at most 2^28 (larger would be absurd here).
    mutating func integer(prefix bits: Int) throws(HPACKError) -> Int {
      guard let first = bytes.popFirst() else { throw HPACKError("a header block that ends inside an integer") }
      let mask = (1 << bits) - 1
      var value = Int(first) & mask
      guard value == mask else { return value }
      var shift = 0
      while true {
        guard let byte = bytes.popFirst() else { throw HPACKError("a header block that ends inside an integer") }
        value += Int(byte & 0x7F) << shift
        shift += 7
        if byte & 0x80 == 0 { return value }
        guard shift < 28 else { throw HPACKError("an integer too large for a header block") }
      }
    }

    /// A string literal (§5.2), Huffman-coded or not.
    mutating func string() throws(HPACKError) -> String {
      guard let first = bytes.first else { throw HPACKError("a header block that ends before a string") }
      let length = try integer(prefix: 7)
      guard length <= bytes.count else { throw HPACKError("a string longer than the rest of its header block") }
      let raw = bytes.prefix(length)
      bytes = bytes.dropFirst(length)
      if first & 0x80 != 0 { return String(decoding: try HuffmanDecoder.decode(raw), as: UTF8.self) }
      return String(decoding: raw, as: UTF8.self)
    }
  }
}
