import APXCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The hosts that bypass the proxy (`NO_PROXY`, `--noproxy`), as curl reads the list: entries
/// separated by commas (or spaces); `*` alone matches every host; a name matches itself and
/// every name under it (`example.com` and `.example.com` both match `api.example.com`); an IP
/// address matches itself, and `10.0.0.0/8` or `fd00::/8` every address in the range.
public struct NoProxyList: Sendable, Hashable {
  enum Entry: Sendable, Hashable {
    case everything
    case domain(String)
    /// Address bytes (4 or 16) and how many leading bits must match.
    case network([UInt8], prefix: Int)
  }

  let entries: [Entry]

  /// The list as written; entries that are neither names, addresses nor ranges never match.
  public init(_ text: String) {
    var entries: [Entry] = []
    for raw in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
      let item = raw.lowercased()
      if item == "*" {
        entries.append(.everything)
        continue
      }
      let (addressText, prefixText) =
        item.firstIndex(of: "/").map { (String(item[..<$0]), String(item[item.index(after: $0)...])) }
        ?? (item, nil)
      let bare = Origin.bare(addressText)
      if let bytes = Self.addressBytes(bare) {
        let bits = bytes.count * 8
        if let prefixText {
          if let prefix = Int(prefixText), (0...bits).contains(prefix) {
            entries.append(.network(bytes, prefix: prefix))
          }
        } else {
          entries.append(.network(bytes, prefix: bits))
        }
        continue
      }
      var name = Substring(item)
      while name.hasPrefix(".") { name = name.dropFirst() }
      if name.hasSuffix(".") { name = name.dropLast() }
      if !name.isEmpty { entries.append(.domain(String(name))) }
    }
    self.entries = entries
  }

  /// Whether `host` (a name, or an IP address with or without IPv6 brackets) bypasses the proxy.
  public func matches(host: String) -> Bool {
    guard !entries.isEmpty else { return false }
    var name = Origin.bare(host.lowercased())
    if name.hasSuffix(".") { name.removeLast() }
    let address = Self.addressBytes(name)
    for entry in entries {
      switch entry {
      case .everything:
        return true
      case .domain(let domain):
        if address == nil, name == domain || name.hasSuffix("." + domain) { return true }
      case .network(let bytes, let prefix):
        if let address, address.count == bytes.count, Self.samePrefix(address, bytes, bits: prefix) { return true }
      }
    }
    return false
  }

  /// Whether the first `bits` bits of `a` and `b` are equal.
  static func samePrefix(_ a: [UInt8], _ b: [UInt8], bits: Int) -> Bool {
    var left = bits
    for index in a.indices where left > 0 {
      let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
      if a[index] & mask != b[index] & mask { return false }
      left -= 8
    }
    return true
  }

  /// The bytes of an IPv4 or IPv6 address in text, or nil for a name.
  static func addressBytes(_ text: String) -> [UInt8]? {
    for (family, size) in [(AF_INET, 4), (AF_INET6, 16)] {
      var bytes = [UInt8](repeating: 0, count: size)
      if bytes.withUnsafeMutableBytes({ inet_pton(family, text, $0.baseAddress) }) == 1 { return bytes }
    }
    return nil
  }
}
