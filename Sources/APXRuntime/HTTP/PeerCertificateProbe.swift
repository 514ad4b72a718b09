import APXCore
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// Looks at the certificate a server presents, after its verification failed, to say why:
/// BoringSSL's verdict (`CERTIFICATE_VERIFY_FAILED`) names neither an expired nor a
/// self-signed certificate. A second handshake that verifies nothing and stops once the
/// server's chain has arrived; nothing is sent over it.
enum PeerCertificateProbe {
  /// The chain `host:port` presents (its own certificate first), or nil when it cannot be had
  /// before `deadline`.
  static func chain(host: String, port: Int, on eventLoop: any EventLoop, deadline: NIODeadline) async
    -> [NIOSSLCertificate]?
  {
    var configuration = TLSConfiguration.makeClientConfiguration()
    // The callback below replaces verification; this mode only makes BoringSSL ask for it.
    configuration.certificateVerification = .noHostnameVerification
    guard let context = try? NIOSSLContext(configuration: configuration) else { return nil }
    let seen = NIOLockedValueBox<[NIOSSLCertificate]?>(nil)
    let bare = Origin.bare(host)
    // SNI takes names only: an IP address there is refused by NIOSSL.
    let sniName = (try? SocketAddress(ipAddress: bare, port: 0)) == nil ? bare : nil
    let left = deadline - .now()
    guard left > .zero else { return nil }
    let bootstrap = ClientBootstrap(group: eventLoop)
      .connectTimeout(left)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let handler = try NIOSSLClientHandler(
            context: context, serverHostname: sniName,
            customVerificationCallback: { certificates, promise in
              seen.withLockedValue { $0 = certificates }
              promise.succeed(.failed)
            })
          try channel.pipeline.syncOperations.addHandler(handler)
        }
      }
    guard let channel = try? await bootstrap.connect(host: bare, port: port).get() else { return nil }
    // The failed handshake closes the channel; a server that never answers is cut at the deadline.
    let cutOff = channel.eventLoop.scheduleTask(deadline: deadline) { channel.close(promise: nil) }
    try? await channel.closeFuture.get()
    cutOff.cancel()
    return seen.withLockedValue { $0 }
  }

  /// Whether a DER certificate names itself as its issuer (self-signed, or at least
  /// self-issued): its issuer and subject Names are the same bytes.
  static func isSelfIssued(_ der: [UInt8]) -> Bool {
    // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
    //   signature, issuer, validity, subject, ... }, ... } (RFC 5280 §4.1)
    guard let certificate = element(der, at: 0), let tbs = element(der, at: certificate.content.lowerBound)
    else { return false }
    var i = tbs.content.lowerBound
    if i < der.count, der[i] == 0xA0, let version = element(der, at: i) { i = version.end }
    // serialNumber, signature, issuer, validity, subject.
    var fields: [Range<Int>] = []
    while fields.count < 5, i < tbs.content.upperBound, let field = element(der, at: i) {
      fields.append(i..<field.end)
      i = field.end
    }
    guard fields.count == 5 else { return false }
    return der[fields[2]].elementsEqual(der[fields[4]])
  }

  /// The DER element at `start`: its content's range and where it ends; nil when malformed.
  private static func element(_ der: [UInt8], at start: Int) -> (content: Range<Int>, end: Int)? {
    guard start + 1 < der.count else { return nil }
    var i = start + 1
    var length = Int(der[i])
    i += 1
    if length & 0x80 != 0 {
      let count = length & 0x7F
      guard (1...4).contains(count), i + count <= der.count else { return nil }
      length = 0
      for _ in 0..<count {
        length = length << 8 | Int(der[i])
        i += 1
      }
    }
    guard length <= der.count - i else { return nil }
    return (i..<i + length, i + length)
  }
}
