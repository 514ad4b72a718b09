import Foundation
import NIOCore
import NIOPosix
import Testing

/// apx's own HTTP/2 client (plaintext gRPC calls that send one message, and reflection)
/// against servers that get HTTP/2 or gRPC wrong, scripted byte by byte: every answer is a
/// clear error with gRPC's exit code, never a hang or a crash.
@Suite("direct gRPC client: hostile HTTP/2 servers", .timeLimit(.minutes(2)))
struct DirectGRPCHostileTests {
  /// A frame: 3-byte length, type, flags, stream id.
  static func frame(_ type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, _ payload: [UInt8] = []) -> [UInt8] {
    let n = payload.count
    return [UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff), type, flags]
      + [UInt8(stream >> 24), UInt8(stream >> 16 & 0xff), UInt8(stream >> 8 & 0xff), UInt8(stream & 0xff)] + payload
  }

  /// An HPACK header field as a literal without indexing, with a new name (RFC 7541 §6.2.2).
  static func literal(_ name: String, _ value: String) -> [UInt8] {
    [0x00, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(value.utf8.count)] + Array(value.utf8)
  }

  static let settings = frame(4)

  private func call(_ answer: [UInt8], timeout: String = "10") async throws -> APXResult {
    // A tail of PINGs keeps the connection open while apx reads the answer: a server that
    // closes with apx's request unread resets the connection, which may discard the answer.
    let tail: [HostileHTTPServer.Part] =
      answer.isEmpty ? [] : [.repeated(Self.frame(6, [0, 0, 0, 0, 0, 0, 0, 0]), count: 50)]
    return try await withHostileServer({ _ in [.bytes(answer)] + tail }) { server in
      let target = server.baseURL.replacingOccurrences(of: "http://", with: "grpc://")
      return try await APXProcess.run([
        "call", "\(target)/pkg.Service/Method", "-d", "{}", "--timeout", timeout, "--retry", "1",
      ])
    }
  }

  @Test func anHTTP1AnswerIsAProtocolErrorNotAHang() async throws {
    let r = try await call(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
    #expect(r.status == 78, "\(r.stderr)")
    #expect(r.stderr.contains("broke the HTTP/2 protocol"), "\(r.stderr)")
  }

  @Test func aServerThatClosesAtOnceIsUnavailable() async throws {
    let r = try await call([])
    #expect(r.status == 78, "\(r.stderr)")
    #expect(r.stderr.contains("closed the connection"), "\(r.stderr)")
  }

  @Test func aTrailersOnlyAnswerGivesItsStatusAndDecodedMessage() async throws {
    // Reflection is the first call: the server refuses it as UNAUTHENTICATED (16), its message
    // percent-encoded as gRPC requires.
    let block =
      Self.literal(":status", "200") + Self.literal("content-type", "application/grpc")
      + Self.literal("grpc-status", "16") + Self.literal("grpc-message", "token%20expired%21")
    let r = try await call(Self.settings + Self.frame(1, flags: 0x5, stream: 1, block))
    #expect(r.status == 80, "\(r.stderr)")
    #expect(r.stderr.contains("token expired!"), "\(r.stderr)")
  }

  @Test func headersSplitIntoContinuationFramesAreJoined() async throws {
    let block =
      Self.literal(":status", "200") + Self.literal("grpc-status", "7")
      + Self.literal("grpc-message", "not for you")
    let half = block.count / 2
    let r = try await call(
      Self.settings + Self.frame(1, flags: 0x1, stream: 1, Array(block[..<half]))
        + Self.frame(9, flags: 0x4, stream: 1, Array(block[half...])))
    #expect(r.status == 71, "\(r.stderr)")
    #expect(r.stderr.contains("not for you"), "\(r.stderr)")
  }

  @Test func aResetStreamIsMappedToItsStatus() async throws {
    // RST_STREAM with REFUSED_STREAM (7): the server did not take the call, UNAVAILABLE.
    let r = try await call(Self.settings + Self.frame(3, stream: 1, [0, 0, 0, 7]))
    #expect(r.status == 78, "\(r.stderr)")
    #expect(r.stderr.contains("RST_STREAM"), "\(r.stderr)")
  }

  @Test func aGoAwayBeforeTheCallIsUnavailable() async throws {
    let r = try await call(Self.settings + Self.frame(7, [0, 0, 0, 0, 0, 0, 0, 0]))
    #expect(r.status == 78, "\(r.stderr)")
    #expect(r.stderr.contains("GOAWAY"), "\(r.stderr)")
  }

  @Test func aNon200StatusIsMappedAsGRPCDoes() async throws {
    // HTTP 404 without a gRPC status is UNIMPLEMENTED, which for reflection v1 and then v1alpha
    // means the server offers none: a usage error that says how to give apx the schema.
    let block = Self.literal(":status", "404")
    let answer =
      Self.settings + Self.frame(1, flags: 0x5, stream: 1, block) + Self.frame(1, flags: 0x5, stream: 3, block)
    let r = try await call(answer)
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("does not offer gRPC server reflection"), "\(r.stderr)")
  }

  @Test func anOversizedFrameIsRefused() async throws {
    // A DATA frame that claims 16 MiB, far above the 16 KiB apx allows.
    let r = try await call(Self.settings + [0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 64))
    #expect(r.status == 78, "\(r.stderr)")
    #expect(r.stderr.contains("more than the 16384"), "\(r.stderr)")
  }

  @Test func aServerThatNeverAnswersMeetsTheDeadline() async throws {
    // A server that accepts the connection, reads everything and never writes a byte.
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let channel = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
    let port = channel.localAddress?.port ?? 0
    let r = try await APXProcess.run([
      "call", "grpc://127.0.0.1:\(port)/pkg.Service/Method", "-d", "{}", "--timeout", "1", "--retry", "1",
    ])
    try await channel.close()
    try await group.shutdownGracefully()
    #expect(r.status == 68, "\(r.stderr)")
    #expect(r.stderr.contains("DEADLINE_EXCEEDED"), "\(r.stderr)")
  }

  @Test func aSecondAnswerToAUnaryCallIsRefused() async throws {
    // Headers, then two (empty) Lesson messages where a unary call takes one, then an OK status.
    let head = Self.literal(":status", "200") + Self.literal("content-type", "application/grpc")
    let answer =
      Self.settings + Self.frame(1, flags: 0x4, stream: 1, head)
      + Self.frame(0, stream: 1, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
      + Self.frame(1, flags: 0x5, stream: 1, Self.literal("grpc-status", "0"))
    let tail: [HostileHTTPServer.Part] = [.repeated(Self.frame(6, [0, 0, 0, 0, 0, 0, 0, 0]), count: 50)]
    let r = try await withHostileServer({ _ in [.bytes(answer)] + tail }) { server in
      let target = server.baseURL.replacingOccurrences(of: "http://", with: "grpc://")
      return try await APXProcess.run([
        "call", "\(target)/classnotes.v1.ClassNotesAPI/GetLesson", "-d", "{}", "--timeout", "10", "--retry", "1",
        "--protoset", APXProcess.packageRoot.appendingPathComponent("Protos/classnotes.protoset").path,
      ])
    }
    #expect(r.status == 77, "\(r.stderr)")
    #expect(r.stderr.contains("more than one response message"), "\(r.stderr)")
  }
}
