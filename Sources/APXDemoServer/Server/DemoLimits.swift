import APXServing

/// Size limits the server enforces and advertises.
enum DemoLimits {
  /// Largest accepted import body (256 MiB), the most the server host takes.
  static let maxUploadBytes = ServerRequestContext.maxUploadBytes
  /// Largest accepted form body for `POST /oauth/token`.
  static let maxFormBytes = 64 * 1024
}
