import APXTestSupport
import Foundation
import Synchronization

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

/// GNOME Keyring serving the Secret Service on a private session bus, unlocked, started by
/// `scripts/with-keyring.sh` for one test: a keychain no one here wrote, used through
/// libsecret's `secret-tool` as apx uses it.
enum KeyringSession {
  static let missing =
    "gnome-keyring-daemon, secret-tool or dbus-run-session is missing (apt-get install gnome-keyring libsecret-tools dbus-x11, as .ci/run does)"

  /// Whether the tools are there, or CI requires them (and the tests then fail).
  static func enabled() async -> Bool {
    await available.value || ProcessInfo.processInfo.environment["APX_CI"] != nil
  }
  private static let available = Task {
    let check = try? await ChildProcess.run(
      "/bin/sh", ["-c", "command -v gnome-keyring-daemon && command -v secret-tool && command -v dbus-run-session"],
      environment: ProcessInfo.processInfo.environment, timeout: 30)
    return check?.status == 0
  }

  struct DidNotStart: Error, CustomStringConvertible {
    var stderr: String
    var description: String { "the keyring session did not start: \(stderr)" }
  }

  /// Runs `body` with the session bus's `DBUS_SESSION_BUS_ADDRESS`; the bus and the keyring
  /// (a scratch folder) end when `body` does.
  static func run(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
    let (addressRead, addressWrite) = try FileDescriptor.pipe()
    defer { try? addressRead.close() }
    let (stdinRead, stdinWrite) = try FileDescriptor.pipe()
    defer { try? stdinWrite.close() }
    let started = Mutex(false)
    let script = APXProcess.packageRoot.appendingPathComponent("scripts/with-keyring.sh").path
    let session = try await ChildProcess.run(
      "/bin/bash", [script, "sh", "-c", #"echo "$DBUS_SESSION_BUS_ADDRESS"; exec cat >/dev/null"#],
      environment: ProcessInfo.processInfo.environment, stdinFrom: stdinRead, stdoutTo: addressWrite,
      timeout: ServerLifetime.seconds, bounded: false
    ) { child in
      defer { child.send(SIGTERM) }
      let line = await GRPCTLSTests.firstLine(FileHandle(fileDescriptor: addressRead.rawValue, closeOnDealloc: false))
      guard line.hasPrefix("unix:") else { return }
      started.withLock { $0 = true }
      try await body(line)
    }
    guard started.withLock({ $0 }) else { throw DidNotStart(stderr: String(decoding: session.stderr, as: UTF8.self)) }
  }

  /// What `secret-tool lookup service apx account ACCOUNT` prints on the bus, or nil (exit 1).
  static func lookup(_ account: String, bus: String) async throws -> String? {
    var env = ProcessInfo.processInfo.environment
    env["DBUS_SESSION_BUS_ADDRESS"] = bus
    let r = try await ChildProcess.run(
      "/usr/bin/env", ["secret-tool", "lookup", "service", "apx", "account", account], environment: env, timeout: 30)
    return r.status == 0 ? String(decoding: r.stdout, as: UTF8.self) : nil
  }
}
