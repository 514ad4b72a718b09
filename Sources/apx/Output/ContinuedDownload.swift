import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `-O FILE --continue`: the body goes to a partial file beside FILE (`.FILE.apx-partial`),
/// which is kept when the call fails or is interrupted, and renamed to FILE once it succeeds.
/// The next `--continue` asks for the rest with `Range: bytes=N-` and `If-Range` holding the
/// validator the server gave (its strong ETag, else its Last-Modified date), kept beside it in
/// `.FILE.apx-partial.json`. A `206` whose range starts at N is appended; a `200` (the server
/// ignored the range, or the file changed) truncates the partial file and starts over, so
/// bytes are never doubled. Without a validator nothing is resumed: apx cannot tell that the
/// bytes it has belong to the file the server has now.
final class ContinuedDownload: @unchecked Sendable {
  /// The path the user gave.
  let path: String
  /// The file replaced at the end: `path`, or where its symbolic links lead.
  let target: String
  let partialPath: String
  let validatorPath: String
  /// The stream the printer writes to (positioned at the end of the partial file).
  let stream: OutputStream
  /// Bytes already in the partial file that the request asks the server to skip; 0 for a fresh start.
  let offset: Int
  /// `Accept-Encoding: identity`, and `Range` and `If-Range` when resuming.
  let requestHeaders: [HeaderField]

  init(path: String) throws(APXError) {
    let (target, folder, name) = try OutputFile.place(path)
    self.path = path
    self.target = target
    partialPath = folder + "." + name + ".apx-partial"
    validatorPath = partialPath + ".json"
    let fd = open(partialPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw APXError(
        .usage, "cannot write \(partialPath): \(String(cString: strerror(errno)))",
        hint: "check that the folder \(folder.isEmpty ? "." : folder) exists and is writable")
    }
    let size = Int(lseek(fd, 0, SEEK_END))
    let validator = Self.readValidator(validatorPath)
    // The bytes on disk must be the representation a range counts in: a body the HTTP client
    // decoded from gzip would put the next range at the wrong offset.
    let identity = HeaderField("Accept-Encoding", "identity")
    if size > 0, let validator {
      offset = size
      requestHeaders = [identity, HeaderField("Range", "bytes=\(size)-"), HeaderField("If-Range", validator)]
    } else {
      // Nothing to resume, or nothing that proves the bytes are the server's current file.
      _ = ftruncate(fd, 0)
      _ = lseek(fd, 0, SEEK_SET)
      offset = 0
      requestHeaders = [identity]
    }
    stream = OutputStream(fd: fd)
  }

  /// The validator of a partial file: `{"if_range": "..."}`, nil when there is none.
  static func readValidator(_ path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path), let value = try? JSONParser.parse(Array(data)),
      let validator = value["if_range"]?.stringValue, !validator.isEmpty
    else { return nil }
    return validator
  }

  /// The `If-Range` value a later `--continue` can send for an answer with these headers: a
  /// strong ETag, else a Last-Modified date (RFC 9110 §13.1.5); nil when there is neither.
  static func validator(in headers: [HeaderField]) -> String? {
    func header(_ name: String) -> String? {
      headers.first { $0.name.lowercased() == name }?.value.trimmingWhitespace()
    }
    if let etag = header("etag"), etag.hasPrefix("\"") { return etag }
    return header("last-modified")
  }

  /// Decides on the answer's head, before any of its body is written: a `206` must start
  /// where the partial file ends; any other success starts the file over. Redirects and
  /// error statuses are left to the call (the partial file stays as it is).
  /// - Throws: `.expectation` for a `206` that starts elsewhere.
  func accept(status: Int, headers: [HeaderField], warn: (String) -> Void) throws(APXError) {
    guard (200..<300).contains(status) else { return }
    if status == 206, offset > 0 {
      let range = headers.first { $0.name.lowercased() == "content-range" }?.value ?? ""
      guard Self.start(ofContentRange: range) == offset else {
        throw APXError(
          .expectation, "the server resumed the download at another byte than \(offset) (Content-Range: \(range))",
          hint: "the partial file \(partialPath) is kept; delete it to download \(path) from the start")
      }
    } else {
      if offset > 0 { warn("apx: the server sent the whole file, not the rest of it; starting \(path) over") }
      stream.flush()
      _ = ftruncate(stream.fd, 0)
      _ = lseek(stream.fd, 0, SEEK_SET)
    }
    let validator = Self.validator(in: headers)
    let text = validator.map { JSONValue.object([JSONMember("if_range", .string($0))]).compactJSON } ?? "{}"
    try? Data(text.utf8).write(to: URL(fileURLWithPath: validatorPath), options: .atomic)
  }

  /// The first byte of `bytes START-END/TOTAL`, nil for anything else.
  static func start(ofContentRange value: String) -> Int? {
    let text = value.trimmingWhitespace()
    guard text.lowercased().hasPrefix("bytes "), let dash = text.firstIndex(of: "-") else { return nil }
    return Int(text[text.index(text.startIndex, offsetBy: 6)..<dash].trimmingWhitespace())
  }

  /// The download is whole: the partial file becomes FILE and its validator goes.
  func commit() throws(APXError) {
    stream.flush()
    OutputFile.giveMode(stream.fd, of: target)
    let synced = fsync(stream.fd) == 0 && !stream.closed
    close(stream.fd)
    guard synced, rename(partialPath, target) == 0 else {
      throw APXError(
        .internalFailure, "cannot write \(path): \(String(cString: strerror(errno)))",
        hint: "check free space and permissions; the partial file \(partialPath) is kept for --continue")
    }
    unlink(validatorPath)
  }

  /// The call failed: what arrived stays in the partial file for the next `--continue`.
  func keep() {
    stream.flush()
    _ = fsync(stream.fd)
    close(stream.fd)
  }
}
