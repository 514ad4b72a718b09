import APXCore
import AsyncHTTPClient
import NIOCore

/// Turns a planned `RequestBody` into an AsyncHTTPClient body. Files and
/// multipart file parts are streamed; lengths are sent when known so servers
/// see Content-Length rather than chunked uploads.
enum RequestBodyFactory {
  /// - Parameter progress: told about each chunk of a streamed body as it goes out (the
  ///   upload bar); inline bodies (`-d '{...}'`) are small and go out in one piece.
  static func make(_ body: RequestBody, progress: UploadProgress? = nil) throws(APXError) -> HTTPClientRequest.Body? {
    switch body {
    case .none:
      return nil
    case .bytes(let bytes, _):
      return .bytes(ByteBuffer(bytes: bytes))
    case .file(let path, _):
      let size = try FileChunks.checkReadable(path)
      return streamed(FileChunks(path: path), length: size, progress: progress)
    case .stdin:
      return streamed(FileChunks(path: nil), length: nil, progress: progress)
    case .multipart(let parts, let boundary):
      var length: Int64 = 0
      for part in parts {
        length += Int64(("--\(boundary)\r\n" + part.headerBlock).utf8.count) + 2
        switch part {
        case .field(_, let value, _): length += Int64(value.utf8.count)
        case .file(_, let path, _, _): length += try FileChunks.checkReadable(path)
        }
      }
      length += Int64("--\(boundary)--\r\n".utf8.count)
      return streamed(MultipartChunks(parts: parts, boundary: boundary), length: length, progress: progress)
    }
  }

  private static func streamed<Chunks: AsyncSequence & Sendable>(
    _ chunks: Chunks, length: Int64?, progress: UploadProgress?
  ) -> HTTPClientRequest.Body where Chunks.Element == ByteBuffer {
    let known: HTTPClientRequest.Body.Length = length.map { .known($0) } ?? .unknown
    guard let progress else { return .stream(chunks, length: known) }
    return .stream(CountedChunks(base: chunks, total: length, progress: progress), length: known)
  }
}

/// A multipart/form-data body produced part by part, file parts streamed.
struct MultipartChunks: AsyncSequence, Sendable {
  typealias Element = ByteBuffer
  let parts: [MultipartPart]
  let boundary: String

  func makeAsyncIterator() -> Iterator { Iterator(parts: parts, boundary: boundary) }

  struct Iterator: AsyncIteratorProtocol {
    let parts: [MultipartPart]
    let boundary: String
    var index = 0
    var file: FileChunks.Iterator?
    var finished = false

    init(parts: [MultipartPart], boundary: String) {
      self.parts = parts
      self.boundary = boundary
    }

    mutating func next() async throws -> ByteBuffer? {
      if var current = file {
        if let chunk = try await current.next() {
          file = current
          return chunk
        }
        file = nil
        return ByteBuffer(string: "\r\n")
      }
      guard index < parts.count else {
        if finished { return nil }
        finished = true
        return ByteBuffer(string: "--\(boundary)--\r\n")
      }
      let part = parts[index]
      index += 1
      let head = "--\(boundary)\r\n" + part.headerBlock
      switch part {
      case .field(_, let value, _):
        return ByteBuffer(string: head + value + "\r\n")
      case .file(_, let path, _, _):
        file = FileChunks(path: path).makeAsyncIterator()
        return ByteBuffer(string: head)
      }
    }
  }
}
