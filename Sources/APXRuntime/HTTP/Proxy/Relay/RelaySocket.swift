import APXCore
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A unix-domain socket that a proxy relay listens on (`TunnelRelay`, `AbsoluteFormRelay`),
/// in a folder only this user can enter: a client library connects to it as to its server,
/// and the relay carries each connection on to the proxy.
final class RelaySocket: Sendable {
  /// The socket the client library connects to.
  let socketPath: String
  private let folder: String
  private let server: any Channel
  /// Why the last connection could not be carried on, for the error of the call that needed it
  /// (cleared when a later one is).
  private let lastFailure: NIOLockedValueBox<APXError?>

  private init(socketPath: String, folder: String, server: any Channel, lastFailure: NIOLockedValueBox<APXError?>) {
    self.socketPath = socketPath
    self.folder = folder
    self.server = server
    self.lastFailure = lastFailure
  }

  /// Why the last connection failed, if one did.
  var failure: APXError? { lastFailure.withLockedValue { $0 } }

  /// Listens on a new socket on `eventLoop`; `accept` carries each connection on (it reads
  /// nothing until `accept` turns `autoRead` on), and reports how that went: why it could not,
  /// or nil once it could.
  ///
  /// - Parameter needs: what needs the socket, for the error when it cannot be opened
  ///   (`gRPC calls through a proxy`).
  static func open(
    for proxy: ProxyServer, needs: String, on eventLoop: any EventLoop,
    accept: @escaping @Sendable (_ inbound: any Channel, _ report: @escaping @Sendable (APXError?) -> Void) -> Void
  ) async throws -> RelaySocket {
    let folder = try RelayFolders.make()
    let socketPath = folder + "/" + RelayFolders.socketName
    let lastFailure = NIOLockedValueBox<APXError?>(nil)
    let report: @Sendable (APXError?) -> Void = { error in lastFailure.withLockedValue { $0 = error } }
    do {
      let server = try await ServerBootstrap(group: eventLoop)
        .childChannelOption(.autoRead, value: false)
        .childChannelInitializer { inbound in
          inbound.eventLoop.makeCompletedFuture { accept(inbound, report) }
        }
        .bind(unixDomainSocketPath: socketPath).get()
      RelayFolders.add(folder)
      return RelaySocket(socketPath: socketPath, folder: folder, server: server, lastFailure: lastFailure)
    } catch {
      RelayFolders.delete(folder)
      throw APXError(
        .network, "could not open a local relay for the proxy \(proxy.display) at \(socketPath)",
        hint: "\(needs) need a unix-domain socket in the temporary folder (TMPDIR)", underlying: error)
    }
  }

  /// Stops listening and removes the socket and its folder.
  func close() async {
    try? await server.close()
    RelayFolders.remove(folder)
  }
}
