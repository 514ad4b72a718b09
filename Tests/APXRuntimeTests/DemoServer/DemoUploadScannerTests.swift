import Testing

@testable import APXDemoServer

/// The demo server's streaming CSV and multipart readers, fed in chunks of every size.
@Suite("Demo server: upload scanners")
struct DemoUploadScannerTests {
  static let csv = Array(
    "\u{FEFF}id, Title ,notes\r\n1,Dune,\"multi\nline, \"\"quoted\"\"\"\r\n\r\n2,  ,blank title\r\n3,\"\",quoted empty\r\n4,\"Solaris\",x\r\n5"
      .utf8)

  /// Feeds `bytes` to a CSV scanner in chunks of `size` bytes.
  static func scanCSV(_ bytes: [UInt8], chunk size: Int) -> CSVImportScanner {
    var scanner = CSVImportScanner()
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + size)
      scanner.consume(Array(bytes[start..<end]))
      start = end
    }
    scanner.finish()
    return scanner
  }

  @Test(arguments: [1, 2, 3, 7, 64, 4096])
  func csvScannerCountsRowsAndEmptyTitles(chunk: Int) {
    let scanner = Self.scanCSV(Self.csv, chunk: chunk)
    #expect(scanner.header == ["id", "Title", "notes"])
    #expect(scanner.titleColumn == 1)
    #expect(scanner.dataRows == 5)
    #expect(scanner.skippedCount == 3)
    #expect(
      scanner.skippedRows == [
        .init(row: 2, message: "empty title"), .init(row: 3, message: "empty title"),
        .init(row: 5, message: "missing title field"),
      ])
    #expect(scanner.byteCount == Self.csv.count)
  }

  @Test func csvWithoutTitleColumnHasNoTitleIndex() {
    let scanner = Self.scanCSV(Array("name,author\nx,y\n".utf8), chunk: 5)
    #expect(scanner.header == ["name", "author"])
    #expect(scanner.titleColumn == nil)
  }

  @Test(arguments: [1, 2, 5, 13, 100, 10_000])
  func multipartScannerExtractsTheFilePart(chunk: Int) throws {
    let boundary = "----apxBoundary7MA4YWxk"
    let content = "title\r\n--not-a-boundary\r\nA\r\n-----apxBoundary7MA4YWxkX is close\r\nB"
    let body = Array(
      ("preamble\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n"
        + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n"
        + "Content-Type: text/csv\r\n\r\n\(content)\r\n--\(boundary)--\r\nepilogue").utf8)
    var scanner = MultipartScanner(boundary: boundary, partName: "file")
    var received: [UInt8] = []
    var start = 0
    while start < body.count {
      let end = min(body.count, start + chunk)
      try scanner.consume(Array(body[start..<end])) { received.append(contentsOf: $0) }
      start = end
    }
    try scanner.finish()
    #expect(scanner.foundPart)
    #expect(String(decoding: received, as: UTF8.self) == content)
  }

  @Test func multipartScannerRejectsATruncatedBody() throws {
    var scanner = MultipartScanner(boundary: "b", partName: "file")
    try scanner.consume(Array("--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\ndata".utf8)) { _ in }
    #expect(throws: MultipartScanner.Failure.self) { try scanner.finish() }
  }

  @Test func boundaryIsReadFromContentType() {
    #expect(MultipartScanner.boundary(fromContentType: "multipart/form-data; boundary=abc") == "abc")
    #expect(MultipartScanner.boundary(fromContentType: "multipart/form-data; charset=x; Boundary=\"q r\"") == "q r")
    #expect(MultipartScanner.boundary(fromContentType: "multipart/form-data") == nil)
  }
}
