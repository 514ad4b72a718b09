import APXCore
import NIOCore
import NIOSSL
import SwiftASN1
import X509

/// https:// to an IP address through a proxy: in the CONNECT tunnel the connection's peer is the
/// proxy, and BoringSSL would judge a certificate's IP address against the proxy's. Such a
/// request's handshake verifies the chain only (`.noHostnameVerification`), and this check, which
/// AsyncHTTPClient runs on each new connection before its first request, holds the leaf
/// certificate to the target's own address (an IP address SAN), as curl does.
enum TunnelledAddressCheck {
  /// Fails unless the certificate the connection's TLS handler met names `address`.
  static func verify(_ channel: any Channel, address: String) -> EventLoopFuture<Void> {
    channel.eventLoop.submit {
      let handler = try channel.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self)
      guard let leaf = handler.peerCertificate else { throw NIOSSLError.noCertificateToValidate }
      // The error BoringSSL's own name check gives, so a mismatch reads as one (exit 6).
      guard try names(address, leaf.toDERBytes()) else { throw NIOSSLExtraError.failedToValidateHostname }
    }
  }

  /// Whether the DER certificate `der` has an IP address SAN equal to `address` (IPv4 or IPv6).
  static func names(_ address: String, _ der: [UInt8]) throws -> Bool {
    let text = Origin.bare(address)
    // Compared in one canonical text (`::1`, not `0:0:0:0:0:0:0:1`).
    guard let wanted = try? SocketAddress(ipAddress: text, port: 0).ipAddress else { return false }
    let certificate = try Certificate(derEncoded: der)
    guard let names = try certificate.extensions.subjectAlternativeNames else { return false }
    return names.contains { name in
      guard case .ipAddress(let octets) = name,
        let named = try? SocketAddress(packedIPAddress: ByteBuffer(bytes: octets.bytes), port: 0)
      else { return false }
      return named.ipAddress == wanted
    }
  }
}
