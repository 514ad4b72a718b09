import Foundation
import Testing

/// A CR LF in a WebSocket handshake's header or subprotocol would be sent as a new header (as
/// REST and GraphQL refuse it, WebSocket must); a subprotocol that is not an RFC 6455 token
/// would offer others. Each is exit 2 before anything is sent: nothing listens on the port the
/// calls name, so a call that sent something would fail on the network (exit 6) instead.
@Suite("WebSocket handshake syntax", .timeLimit(.minutes(5)))
struct WebSocketHandshakeSyntaxTests {
  static let nowhere = "ws://127.0.0.1:1/echo"

  @Test(arguments: [
    ("x\r\nEvil: 1", "contains a carriage return (CR)"),
    ("a,b", "contains ','"),
    ("two words", "contains a space"),
    ("", "cannot be empty"),
  ])
  func aSubprotocolThatIsNotATokenIsRefused(subprotocol: String, message: String) async throws {
    let r = try await APXProcess.run(["call", Self.nowhere, "--subprotocol", subprotocol, "-d", "{}"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("--subprotocol: a WebSocket subprotocol \(message)"), "\(r.stderr)")
    #expect(!r.stderr.contains("Evil"), "the value is not shown: \(r.stderr)")
  }

  /// A method other than GET (a METHOD word or -X) would be dropped: refused instead.
  @Test func aMethodOtherThanGETIsRefused() async throws {
    for arguments in [["POST", Self.nowhere], ["-X", "PUT", Self.nowhere]] {
      let r = try await APXProcess.run(["call"] + arguments + ["-d", "{}"])
      #expect(r.status == 2, "\(arguments): \(r.stderr)")
      #expect(r.stderr.contains("a WebSocket handshake is a GET"), "\(r.stderr)")
    }
  }

  /// Values from the environment reach the handshake after the flags were checked.
  @Test func aRegistryHeaderOrSubprotocolFromTheEnvironmentWithCRLFIsRefused() async throws {
    let registry = try temporaryFile(
      "ws.json",
      #"""
      {
        "api": "ws", "environments": {"prod": {"base_url": "ws://127.0.0.1:1"}},
        "headers": {"X-Tag": "${env:WS_TAG}"},
        "endpoints": {
          "echo": {"kind": "websocket", "path": "/echo", "send": [{"hi": 1}]},
          "proto": {"kind": "websocket", "path": "/echo", "subprotocols": ["v1.${env:WS_PROTO}"], "send": [{"hi": 1}]}
        }
      }
      """#)
    let header = try await APXProcess.run(
      ["call", "ws.echo", "--registry", registry], environment: ["WS_TAG": "t\r\nEvil: 1", "WS_PROTO": "ok"])
    #expect(header.status == 2, "\(header.stderr)")
    #expect(
      header.stderr.contains(#"the value of the header "X-Tag" contains a carriage return (CR)"#), "\(header.stderr)")
    let proto = try await APXProcess.run(
      ["call", "ws.proto", "--registry", registry], environment: ["WS_TAG": "t", "WS_PROTO": "x\r\nEvil: 1"])
    #expect(proto.status == 2, "\(proto.stderr)")
    #expect(proto.stderr.contains("a WebSocket subprotocol contains a carriage return (CR)"), "\(proto.stderr)")
    #expect(!proto.stderr.contains("Evil"), "\(proto.stderr)")
  }
}
