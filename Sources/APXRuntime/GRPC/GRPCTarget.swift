public import APXCore
import GRPCCore
import GRPCNIOTransportHTTP2

/// Where a gRPC server lives, parsed from a base URL: `grpc://host:port`
/// (plaintext HTTP/2), `grpcs://host:port` (TLS, port 443 by default), or a
/// bare `host:port` (plaintext, for `apx list --grpc HOST:PORT`).
public struct GRPCTarget: Sendable, Hashable, CustomStringConvertible {
  /// Host name or IP address (IPv6 without brackets).
  public var host: String
  public var port: Int
  /// TLS (grpcs://) or plaintext (grpc://).
  public var useTLS: Bool

  /// Makes a target from its parts.
  public init(host: String, port: Int, useTLS: Bool) {
    self.host = host
    self.port = port
    self.useTLS = useTLS
  }

  /// Parses a gRPC base URL; anything else is a usage error that says which forms work.
  public init(parsing text: String) throws(APXError) {
    var rest = Substring(text)
    var tls = false
    if rest.hasPrefix("grpcs://") {
      tls = true
      rest = rest.dropFirst("grpcs://".count)
    } else if rest.hasPrefix("grpc://") {
      rest = rest.dropFirst("grpc://".count)
    } else if rest.contains("://") {
      throw APXError(
        .usage, "\"\(text)\" is not a gRPC address",
        hint: "gRPC base URLs look like grpc://host:port (plaintext) or grpcs://host:port (TLS)")
    }
    while rest.hasSuffix("/") { rest = rest.dropLast() }
    guard !rest.contains("/") else {
      throw APXError(
        .usage, "the gRPC address \"\(text)\" has a path",
        hint: "gRPC calls go to /package.Service/Method on the server itself: use grpc://host:port")
    }
    let host: String
    let portText: Substring?
    switch Origin.split(rest) {
    case .success(let parts): (host, portText) = (Origin.bare(parts.host), parts.port)
    case .failure(.unclosedBracket):
      throw APXError(.usage, "the IPv6 address in \"\(text)\" has no closing ]", hint: "e.g. grpc://[::1]:50051")
    case .failure(.textAfterAddress):
      throw APXError(
        .usage, "the gRPC address \"\(text)\" has text after its IPv6 address", hint: "e.g. grpc://[::1]:50051")
    }
    guard !host.isEmpty else {
      throw APXError(.usage, "the gRPC address \"\(text)\" has no host", hint: "e.g. grpc://127.0.0.1:50051")
    }
    let port: Int
    if let portText {
      guard let p = Int(portText), (1...65535).contains(p) else {
        throw APXError(.usage, "the port in \"\(text)\" must be a number from 1 to 65535")
      }
      port = p
    } else if tls {
      port = 443
    } else {
      throw APXError(
        .usage, "the gRPC address \"\(text)\" has no port", hint: "plaintext gRPC has no default port: grpc://host:PORT"
      )
    }
    self.init(host: host, port: port, useTLS: tls)
  }

  /// `grpc://host:port` or `grpcs://host:port`.
  public var description: String {
    Origin(scheme: useTLS ? "grpcs" : "grpc", host: host, port: port).description
  }

  /// The name resolver target for grpc-swift's transport.
  var resolvable: any ResolvableTarget {
    if Self.isIPv4(host) { return ResolvableTargets.IPv4.ipv4(address: host, port: port) }
    if host.contains(":") { return ResolvableTargets.IPv6.ipv6(address: host, port: port) }
    return ResolvableTargets.DNS.dns(host: host, port: port)
  }

  static func isIPv4(_ s: String) -> Bool {
    let parts = s.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts.allSatisfy { p in !p.isEmpty && p.count <= 3 && UInt8(p) != nil }
  }
}
