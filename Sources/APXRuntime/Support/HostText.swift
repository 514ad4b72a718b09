/// Host names as URLs write them.
enum HostText {
  /// Whether `host` is an IP address (IPv4 dotted, or IPv6, which alone holds a colon) rather
  /// than a name: TLS sends no server name for it, and checks it against the peer's address.
  static func isIPAddress(_ host: String) -> Bool {
    host.contains(":") || GRPCTarget.isIPv4(host)
  }
}
