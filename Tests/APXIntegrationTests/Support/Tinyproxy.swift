import APXTestSupport
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// tinyproxy, a forward proxy no one here wrote, run on 127.0.0.1 with a configuration of the
/// test's own: CONNECT only to `connectPorts` (443 unless told, as its shipped configuration
/// has it, so a tunnel to a loopback port is refused as an office proxy refuses it), and Basic
/// credentials when given. It runs in the foreground, at most `lifetime` seconds, logging each
/// request line to a file in its scratch folder; the test's body ends it.
struct Tinyproxy: Sendable {
  let port: Int
  let log: URL

  /// `http://[user:password@]127.0.0.1:PORT`.
  func url(user: String? = nil, password: String? = nil) -> String {
    let userInfo = user.map { u in password.map { "\(u):\($0)@" } ?? "\(u)@" } ?? ""
    return "http://\(userInfo)127.0.0.1:\(port)"
  }

  /// The request lines tinyproxy logged so far (`GET http://127.0.0.1:8080/path HTTP/1.1`,
  /// `CONNECT 127.0.0.1:8443 HTTP/1.1`).
  var requests: [String] {
    logText.split(separator: "\n").compactMap { line in
      line.range(of: "): ").flatMap { range in
        line.contains("Request (file descriptor") ? String(line[range.upperBound...]) : nil
      }
    }
  }

  /// What tinyproxy logged so far.
  var logText: String {
    (try? String(contentsOf: log, encoding: .utf8))
      ?? "(no log at \(log.path); the folder has \((try? FileManager.default.contentsOfDirectory(atPath: log.deletingLastPathComponent().path)) ?? []))"
  }

  /// The path of the tinyproxy binary, or nil when it is not installed.
  static var binary: String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/sbin"
    for folder in path.split(separator: ":") + ["/usr/sbin", "/usr/bin"] {
      let candidate = "\(folder)/tinyproxy"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Whether the tinyproxy tests run: when it is installed, and always under `.ci/run`
  /// (APX_CI), which installs it, so that a missing proxy fails there instead of skipping.
  static var shouldRun: Bool { binary != nil || ProcessInfo.processInfo.environment["APX_CI"] != nil }

  struct DidNotStart: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `body` with a tinyproxy that stops when `body` ends.
  static func with(
    credentials: (user: String, password: String)? = nil, connectPorts: [Int] = [443],
    lifetime: Double = ServerLifetime.seconds,
    _ body: @escaping @Sendable (Tinyproxy) async throws -> Void
  ) async throws {
    guard let binary else { throw DidNotStart(description: "tinyproxy is not installed (apt-get install tinyproxy)") }
    let folder = TestScratch.root.appendingPathComponent("tinyproxy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // tinyproxy takes no port 0: a free port is found first, and taken again if another
    // process took it in between.
    var lastError = ""
    for _ in 0..<3 {
      let port = try await freeLoopbackPort()
      let proxy = Tinyproxy(port: port, log: folder.appendingPathComponent("tinyproxy.log"))
      let config = folder.appendingPathComponent("tinyproxy.conf")
      var lines = [
        "Port \(port)", "Listen 127.0.0.1", "Timeout 30", "MaxClients 32", "Allow 127.0.0.1",
        "LogFile \"\(proxy.log.path)\"", "LogLevel Connect",
      ]
      lines += connectPorts.map { "ConnectPort \($0)" }
      if let credentials { lines.append("BasicAuth \(credentials.user) \(credentials.password)") }
      try (lines.joined(separator: "\n") + "\n").write(to: config, atomically: true, encoding: .utf8)
      let ran = Mutex(false)
      let result = try await ChildProcess.run(
        binary, ["-d", "-c", config.path], environment: ProcessInfo.processInfo.environment, timeout: lifetime,
        bounded: false
      ) { child in
        defer { child.send(SIGTERM) }
        for _ in 0..<100 {
          if let fd = try? connectLoopback(port: port) {
            _ = close(fd)
            ran.withLock { $0 = true }
            try await body(proxy)
            return
          }
          try await Task.sleep(for: .milliseconds(50))
        }
      }
      if ran.withLock({ $0 }) { return }
      lastError = String(decoding: result.stderr + result.stdout, as: UTF8.self)
    }
    throw DidNotStart(description: "tinyproxy did not start: \(lastError)")
  }

  /// A port nothing listens on now, from the kernel's choice for a socket bound to port 0.
  private static func freeLoopbackPort() async throws -> Int {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .bind(host: "127.0.0.1", port: 0).get()
    let port = channel.localAddress?.port
    try await channel.close()
    guard let port else { throw DidNotStart(description: "could not bind a loopback socket") }
    return port
  }
}
