import APXCore

/// What `apx list grpc://HOST:PORT[/package.Service]` lists: every service, or one.
enum GRPCListTarget {
  /// The service the address's path names, or nil for a bare server address.
  /// - Throws: a usage error for a path that names a method, or is not `package.Service`.
  static func service(in address: String) throws(APXError) -> String? {
    guard address.hasPrefix("grpc://") || address.hasPrefix("grpcs://"),
      let url = try? AdHocURL(parsing: address), !url.path.isEmpty, url.path != "/"
    else { return nil }
    let (service, method) = try AdHocGRPCEndpoint.serviceAndMethod(url)
    if method != nil {
      throw APXError(
        .usage, "\(address) names a method; apx list shows a server's services, or one service's methods",
        hint: "apx describe \(address) shows the method; apx list \(url.origin)/\(service) lists its service")
    }
    return service
  }
}
