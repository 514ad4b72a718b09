/// A streaming CSV reader that keeps only what an import needs: the header row,
/// the number of data rows, and which rows have an empty title.
///
/// It follows RFC 4180 (quoted fields may hold commas, quotes and newlines; CRLF or LF
/// line ends) and holds only the current field in memory, so uploads of any size
/// are scanned with bounded memory, chunk by chunk.
struct CSVImportScanner: Sendable {
  /// A data row that will be skipped by the import, and why.
  struct SkippedRow: Sendable, Equatable {
    /// 1-based data row number (the header row is not counted).
    let row: Int
    let message: String
  }

  /// Most skipped rows listed in detail; `skippedCount` keeps counting past it.
  static let maxListedSkips = 100
  /// Longest header cell kept; longer ones are cut (they are only matched against `title`).
  private static let maxHeaderCellBytes = 1024

  /// Header cells, trimmed; nil until the header row ended.
  private(set) var header: [String]?
  /// Index of the `title` column, when the header has one.
  private(set) var titleColumn: Int?
  /// Data rows seen (blank lines are ignored).
  private(set) var dataRows = 0
  /// Rows with an empty title, up to `maxListedSkips`.
  private(set) var skippedRows: [SkippedRow] = []
  /// All rows with an empty title.
  private(set) var skippedCount = 0
  /// Bytes consumed so far.
  private(set) var byteCount = 0

  private var inQuotes = false
  private var quotePending = false
  private var fieldIndex = 0
  private var fieldLength = 0
  private var fieldBytes: [UInt8] = []
  private var titleHasText = false
  private var rowHasContent = false

  /// Scans the next chunk of the upload.
  mutating func consume(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { consume($0) }
  }

  /// Scans the next chunk of the upload, read in place.
  ///
  /// A plain pointer loop: iterating a generic `Sequence` here made a 64 MB upload
  /// take minutes in debug builds; this loop takes seconds.
  mutating func consume(_ bytes: UnsafeRawBufferPointer) {
    byteCount += bytes.count
    let quote = UInt8(ascii: "\"")
    for byte in bytes {
      if inQuotes {
        if quotePending {
          quotePending = false
          if byte == quote {
            append(byte)
            continue
          }
          inQuotes = false  // the pending quote closed the field; handle `byte` unquoted
        } else if byte == quote {
          quotePending = true
          continue
        } else {
          append(byte)
          continue
        }
      }
      switch byte {
      case quote:
        if !fieldStarted {
          inQuotes = true
          rowHasContent = true
          fieldStarted = true
        } else {
          append(byte)
        }
      case UInt8(ascii: ","):
        rowHasContent = true
        endField()
      case UInt8(ascii: "\n"):
        endField()
        endRow()
      case UInt8(ascii: "\r"):
        break  // CRLF line ends: the LF ends the row
      default:
        // Inlined `append(byte)` for the common case of a plain byte in a data row.
        if header != nil && fieldIndex != titleColumn {
          fieldLength += 1
          rowHasContent = true
          fieldStarted = true
        } else {
          append(byte)
        }
      }
    }
  }

  /// Ends the upload: a last row without a line end still counts.
  mutating func finish() {
    if inQuotes || fieldIndex > 0 || fieldLength > 0 || rowHasContent {
      inQuotes = false
      quotePending = false
      endField()
      endRow()
    }
  }

  /// True once the current field has content or an opening quote.
  private var fieldStarted = false

  private mutating func append(_ byte: UInt8) {
    fieldLength += 1
    rowHasContent = true
    fieldStarted = true
    if header == nil {
      if fieldBytes.count < Self.maxHeaderCellBytes { fieldBytes.append(byte) }
    } else if fieldIndex == titleColumn, !titleHasText, !Self.isSpace(byte) {
      titleHasText = true
    }
  }

  private mutating func endField() {
    if header == nil {
      pendingHeader.append(Self.headerCell(fieldBytes, first: fieldIndex == 0))
      fieldBytes.removeAll(keepingCapacity: true)
    }
    fieldIndex += 1
    fieldLength = 0
    fieldStarted = false
  }

  private var pendingHeader: [String] = []

  private mutating func endRow() {
    defer {
      fieldIndex = 0
      titleHasText = false
      rowHasContent = false
    }
    guard rowHasContent else {
      pendingHeader.removeAll()
      return  // blank line
    }
    guard header != nil else {
      header = pendingHeader
      titleColumn = pendingHeader.firstIndex { $0.lowercased() == "title" }
      pendingHeader = []
      return
    }
    dataRows += 1
    if !titleHasText {
      skippedCount += 1
      if skippedRows.count < Self.maxListedSkips {
        let reason = (titleColumn ?? 0) < fieldIndex ? "empty title" : "missing title field"
        skippedRows.append(SkippedRow(row: dataRows, message: reason))
      }
    }
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }

  /// A header cell as text, trimmed, without a UTF-8 byte order mark.
  private static func headerCell(_ bytes: [UInt8], first: Bool) -> String {
    var slice = bytes[...]
    if first, slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
    let text = String(decoding: slice, as: UTF8.self)
    return text[...].trimmingSpaces()
  }
}
