public import APXCore
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

/// Inflates a gzip-compressed file, such as an OpenAPI description shipped as `.json.gz`.
///
/// The zlib decoder is NIOHTTPCompression's, which apx already links for compressed HTTP
/// bodies; its only public entry point is an HTTP handler, so the file goes through one as the
/// body of a gzip-encoded response, in an `EmbeddedChannel` (no I/O, no threads). The handler
/// brings what a hand-written inflater would have to repeat: a size limit enforced as bytes
/// come out, and a truncated stream reported rather than passed off as a shorter file.
public enum GzipFile {
  /// Whether `bytes` start with gzip's magic number (RFC 1952: 1f 8b).
  public static func isCompressed(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
  }

  /// The inflated contents of a gzip file.
  ///
  /// - Parameters:
  ///   - source: the file or URL, for messages.
  ///   - maxBytes: the most the contents may inflate to; beyond it (a gzip bomb, or a document
  ///     too large anyway) the read stops with an error.
  public static func inflate(_ bytes: [UInt8], source: String, maxBytes: Int) throws(APXError) -> [UInt8] {
    let channel = EmbeddedChannel(handler: NIOHTTPResponseDecompressor(limit: .size(maxBytes)))
    defer { _ = try? channel.finish() }
    var head = HTTPResponseHead(version: .http1_1, status: .ok)
    head.headers.add(name: "Content-Encoding", value: "gzip")
    var output: [UInt8] = []
    do {
      try channel.writeInbound(HTTPClientResponsePart.head(head))
      try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(bytes: bytes)))
      try channel.writeInbound(HTTPClientResponsePart.end(nil))
      while let part = try channel.readInbound(as: HTTPClientResponsePart.self) {
        if case .body(let buffer) = part { output.append(contentsOf: buffer.readableBytesView) }
      }
    } catch let error as NIOHTTPDecompression.DecompressionError where error == .limit {
      throw APXError(
        .invalidDefinition, "\(source) inflates to more than \(maxBytes >> 20) MB",
        hint: "apx reads documents up to \(maxBytes >> 20) MB; a gzip file that expands beyond it may be a bomb",
        file: source)
    } catch {
      throw APXError(
        .invalidDefinition, "\(source) starts like a gzip file but cannot be inflated (\(error))",
        hint: "check the file with `gzip -t`; it may be truncated or damaged", file: source)
    }
    return output
  }
}
