import Hummingbird

/// Reads an import request's body as it streams in (raw `text/csv` or a
/// `multipart/form-data` part named `file`) and checks it is an importable CSV.
enum ImportUpload {
  /// Media types accepted as a raw CSV body.
  static let csvMediaTypes: Set<String> = ["text/csv", "application/csv"]

  /// Scans the body of `request`; throws a 400/413/415 `DemoError` when it cannot be imported.
  static func scan(_ request: Request) async throws -> CSVImportScanner {
    let contentType = request.headers[.contentType] ?? ""
    let mediaType = contentType.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
    var csv = CSVImportScanner()
    var received = 0
    if csvMediaTypes.contains(mediaType) {
      for try await chunk in request.body {
        received += chunk.readableBytes
        try checkSize(received)
        chunk.withUnsafeReadableBytes { csv.consume($0) }
      }
    } else if mediaType == "multipart/form-data" {
      guard let boundary = MultipartScanner.boundary(fromContentType: contentType) else {
        throw DemoError.badRequest("invalid_multipart", "multipart/form-data needs a boundary parameter")
      }
      var multipart = MultipartScanner(boundary: boundary, partName: "file")
      do {
        for try await chunk in request.body {
          received += chunk.readableBytes
          try checkSize(received)
          try chunk.withUnsafeReadableBytes { bytes in
            try multipart.consume(bytes) { csv.consume($0) }
          }
        }
        if received > 0 { try multipart.finish() }
      } catch MultipartScanner.Failure.malformed(let reason) {
        throw DemoError.badRequest("invalid_multipart", reason)
      }
      if received > 0 && !multipart.foundPart {
        throw DemoError.badRequest(
          "missing_file_part", "the multipart body has no part named 'file'; send the CSV as form field 'file'")
      }
    } else {
      let shown = mediaType.isEmpty ? "no Content-Type" : "Content-Type '\(mediaType)'"
      throw DemoError(
        status: .unsupportedMediaType, code: "unsupported_media_type",
        message: "imports accept text/csv or multipart/form-data (part 'file'), not \(shown)")
    }
    csv.finish()
    guard received > 0 else {
      throw DemoError.badRequest("empty_body", "the import body is empty; send a CSV with a header row")
    }
    guard let header = csv.header else {
      throw DemoError.badRequest("missing_header", "the CSV has no header row")
    }
    guard csv.titleColumn != nil else {
      let columns = header.map { "'\($0)'" }.joined(separator: ", ")
      throw DemoError.badRequest(
        "missing_title_column", "the CSV header row has no 'title' column (columns: \(columns))")
    }
    return csv
  }

  private static func checkSize(_ received: Int) throws {
    guard received <= DemoLimits.maxUploadBytes else {
      throw DemoError(
        status: .contentTooLarge, code: "payload_too_large",
        message: "the import body exceeds \(DemoLimits.maxUploadBytes) bytes")
    }
  }
}
