import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
  // `struct stat`'s fields live in the CoreFoundation clang module under MemberImportVisibility
  // (see FileBytes); importing it links nothing.
  import CoreFoundation
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
/// bytes are never doubled. Without a validator (a server that gave none, or a FILE another
/// tool left half-written, whose bytes are copied into the partial file), the rest is asked for
/// with `Range` alone, as curl `-C -` and wget `-c` do, and `note` says the first bytes were
/// not checked.
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
  /// For stderr before the call: a resume whose first bytes nothing checks.
  let note: String?
  /// The partial file is a copy of FILE, which another tool left: FILE holds the same bytes.
  private let copiedFromTarget: Bool
  /// Set when the partial file is worth nothing to a later `--continue`.
  private var discardOnKeep = false
  /// The server answered 416 saying its file is exactly as long as the bytes apx has: the
  /// download is whole, as wget -c says of a file already fully retrieved.
  private(set) var alreadyWhole = false

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
    var size = Int(lseek(fd, 0, SEEK_END))
    var validator = Self.readValidator(validatorPath)
    copiedFromTarget = size == 0 && Self.regularFileSize(target) > 0
    if copiedFromTarget {
      // FILE itself is a partial download another tool wrote: its bytes start the partial file,
      // and FILE stays as it is until the download is whole.
      do {
        size = try Self.copy(target, into: fd)
      } catch {
        close(fd)
        unlink(partialPath)
        throw error
      }
      validator = nil
    }
    // The bytes on disk must be the representation a range counts in: a body the HTTP client
    // decoded from gzip would put the next range at the wrong offset.
    let identity = HeaderField("Accept-Encoding", "identity")
    offset = size
    if size > 0, let validator {
      requestHeaders = [identity, HeaderField("Range", "bytes=\(size)-"), HeaderField("If-Range", validator)]
      note = nil
    } else if size > 0 {
      requestHeaders = [identity, HeaderField("Range", "bytes=\(size)-")]
      note =
        "apx: resuming \(path) at byte \(size) without a validator from an earlier apx download: the first "
        + "\(size) bytes are not checked against the server's file (delete \(copiedFromTarget ? path : partialPath) "
        + "to download it whole)"
    } else {
      requestHeaders = [identity]
      note = nil
    }
    stream = OutputStream(fd: fd)
  }

  /// The size of the regular file at `path`; 0 for none, an empty one, or anything else.
  static func regularFileSize(_ path: String) -> Int {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return 0 }
    return Int(info.st_size)
  }

  /// Appends the bytes of `path` to `fd`, returning how many.
  static func copy(_ path: String, into fd: Int32) throws(APXError) -> Int {
    let source = open(path, O_RDONLY | O_CLOEXEC)
    guard source >= 0 else {
      throw APXError(
        .usage, "cannot read \(path) to resume it: \(String(cString: strerror(errno)))",
        hint: "check its permissions, or delete it to download it whole")
    }
    defer { close(source) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var total = 0
    while true {
      let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
      if n == 0 { return total }
      guard n > 0, Self.writeAll(fd, buffer[..<n]) else {
        throw APXError(
          .internalFailure, "cannot copy \(path) to resume it: \(String(cString: strerror(errno)))",
          hint: "check free space beside it, or delete it to download it whole")
      }
      total += n
    }
  }

  private static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
    var rest = bytes
    while !rest.isEmpty {
      let n = rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      guard n > 0 else { return false }
      rest = rest.dropFirst(n)
    }
    return true
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
    if status == 416, offset > 0 {
      // Range Not Satisfiable: the server's file ends at or before the bytes apx has.
      let range = headers.first { $0.name.lowercased() == "content-range" }?.value
      if let range, Self.total(ofContentRange: range) == offset {
        alreadyWhole = true
        return
      }
      warn(
        "apx: the server has no bytes past byte \(offset)\(range.map { " (Content-Range: \($0))" } ?? ""): "
          + "\(path) may be whole already, or the server's file changed; delete "
          + "\(copiedFromTarget ? path : partialPath) to download it from the start")
      // A copy of FILE adds nothing to FILE itself.
      discardOnKeep = copiedFromTarget
    }
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

  /// The TOTAL of `bytes */TOTAL` (or `bytes START-END/TOTAL`), nil when unknown.
  static func total(ofContentRange value: String) -> Int? {
    guard let slash = value.lastIndex(of: "/") else { return nil }
    return Int(value[value.index(after: slash)...].trimmingWhitespace())
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

  /// The server has no more bytes and the file is whole: a copy of FILE goes (FILE holds
  /// the same bytes), an earlier partial file becomes FILE.
  func finishWhole() throws(APXError) {
    guard copiedFromTarget else { return try commit() }
    close(stream.fd)
    unlink(partialPath)
    unlink(validatorPath)
  }

  /// The call failed: what arrived stays in the partial file for the next `--continue`.
  func keep() {
    stream.flush()
    _ = fsync(stream.fd)
    close(stream.fd)
    if discardOnKeep {
      unlink(partialPath)
      unlink(validatorPath)
    }
  }
}
