public import APXCore

extension HTTPRequestPlan {
  /// The headers that go on the wire: the plan's own, then the ones the HTTP client adds
  /// when the plan has none of that name. `-v`, HAR and `HTTPSession.send` all take this
  /// list, so what is shown is what is sent.
  public var headersSent: [HeaderField] {
    var headers = self.headers
    let names = Set(headers.map { $0.name.lowercased() })
    if !names.contains("user-agent") { headers.append(HeaderField("User-Agent", "apx/\(APXVersion.current)")) }
    // The value AsyncHTTPClient's decompression sends when the request has none; sent by
    // apx instead, so that it is shown too. Bodies in either encoding are decoded as they come.
    if !names.contains("accept-encoding") { headers.append(HeaderField("Accept-Encoding", "deflate, gzip")) }
    return headers
  }
}
