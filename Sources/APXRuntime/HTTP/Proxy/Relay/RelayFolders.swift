import APXCore
import Synchronization

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

/// The folders of the proxy relays' unix-domain sockets (`TunnelRelay`, `AbsoluteFormRelay`),
/// each a new folder only this user can enter, holding one `relay.sock`. They are removed when
/// their relay closes or, for a session kept to the end (`SessionClosing.atProcessExit`), by
/// `ProcessExit.removeTemporaryFiles()`.
enum RelayFolders {
  static let open = Mutex<[String]>([])

  /// The name of the socket in each folder.
  static let socketName = "relay.sock"

  /// A new private folder in the system's temporary folder, or in /tmp when that one's path is
  /// too long for a socket's (at most 103 bytes).
  static func make() throws(APXError) -> String {
    let temporary = FileManager.default.temporaryDirectory.path
    let base = temporary.utf8.count + "/apx-proxy-XXXXXX/\(socketName)".utf8.count <= 103 ? temporary : "/tmp"
    var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast())
    template += Array("apx-proxy-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw APXError(
        .network, "could not make a folder for the proxy relay in \(base)", hint: "check TMPDIR")
    }
    return String(cString: made)
  }

  static func add(_ folder: String) {
    open.withLock { $0.append(folder) }
  }

  static func remove(_ folder: String) {
    open.withLock { $0.removeAll { $0 == folder } }
    delete(folder)
  }

  static func removeAll() {
    for folder in open.withLock({ $0 }) { delete(folder) }
  }

  /// Removes `folder` and its socket.
  static func delete(_ folder: String) {
    unlink(folder + "/" + socketName)
    rmdir(folder)
  }
}
