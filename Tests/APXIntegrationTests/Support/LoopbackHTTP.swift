import APXCore
import Foundation

/// A minimal HTTP/1.1 client over a blocking loopback socket, on a thread of its own: one
/// request with `Connection: close`, the answer read to the end.
enum LoopbackHTTP {
  struct Answer: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSONValue? { try? JSONParser.parse(body) }
  }

  static func request(
    port: Int, _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil
  ) async throws -> Answer {
    var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
    if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
    text += "\r\n" + (body ?? "")
    let raw = try await exchange(port: port, Array(text.utf8))
    return try parse(raw)
  }

  /// Sends `bytes` and reads until the server closes the connection.
  static func exchange(port: Int, _ bytes: [UInt8]) async throws -> [UInt8] {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(with: Result { try blockingExchange(port: port, bytes) })
      }.start()
    }
  }

  private static func blockingExchange(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
    let fd = try connectLoopback(port: port)
    defer { closeSocket(fd) }
    guard write(fd, bytes, bytes.count) == bytes.count else { throw SSEWatchTests.TestFailure("cannot send") }
    return readToEnd(fd)
  }

  /// Everything `fd` delivers until the peer closes (or an error).
  static func readToEnd(_ fd: Int32) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(fd, &buffer, buffer.count)
      if n <= 0 { break }
      out += buffer[0..<n]
    }
    return out
  }

  /// The status, headers and body (chunked transfer decoded) of a raw answer.
  static func parse(_ raw: [UInt8]) throws -> Answer {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard let end = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else {
      throw SSEWatchTests.TestFailure("no complete answer: \(String(decoding: raw, as: UTF8.self))")
    }
    let head = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let status = Int(head[0].split(separator: " ").dropFirst().first ?? "") ?? 0
    var headers: [(name: String, value: String)] = []
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
    }
    var body = Array(raw[(end + 4)...])
    if headers.contains(where: { $0.name.lowercased() == "transfer-encoding" && $0.value.lowercased() == "chunked" }) {
      body = dechunk(body)
    }
    return Answer(status: status, headers: headers, body: body)
  }

  private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      guard let lineEnd = bytes[i...].indices.first(where: { bytes[$0...].starts(with: [13, 10]) }) else { break }
      let size = Int(String(decoding: bytes[i..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
      if size == 0 { break }
      let start = lineEnd + 2
      out += bytes[start..<min(bytes.count, start + size)]
      i = start + size + 2
    }
    return out
  }
}

/// A blocking TCP connection to 127.0.0.1:`port` (a descriptor the caller closes).
func connectLoopback(port: Int) throws -> Int32 {
  #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
  #endif
  guard fd >= 0 else { throw SSEWatchTests.TestFailure("no socket") }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else {
    closeSocket(fd)
    throw SSEWatchTests.TestFailure("cannot connect to 127.0.0.1:\(port)")
  }
  return fd
}

/// The C library's `close`.
private func closeSocket(_ fd: Int32) {
  _ = close(fd)
}
