/// The JSON-RPC fields of a registry endpoint: `rpc_method`, `params_by`, `notification`.
extension RegistryLoader {
  /// Decodes the fields of a `kind: "jsonrpc"` endpoint; problems go to `r`.
  static func decodeJSONRPC(_ f: [JSONMember], at p: [JSONPathComponent], _ r: inout DocumentReader)
    -> JSONRPCOptions?
  {
    guard let rpcMethod = r.requiredString(f, "rpc_method", at: p) else { return nil }
    if rpcMethod.isEmpty {
      r.fail(p + [.key("rpc_method")], "rpc_method must not be empty", hint: "e.g. \"rpc_method\": \"subtract\"")
    } else if rpcMethod.hasPrefix("rpc.") {
      r.fail(
        p + [.key("rpc_method")], "rpc_method \"\(rpcMethod)\" starts with \"rpc.\", which JSON-RPC 2.0 reserves",
        hint: "name the server's own method")
    }
    var paramsBy = JSONRPCOptions.ParamsBy.name
    if let text = r.optionalString(f, "params_by", at: p) {
      if let value = JSONRPCOptions.ParamsBy(rawValue: text) {
        paramsBy = value
      } else {
        r.fail(
          p + [.key("params_by")], "unknown params_by \"\(text)\"",
          hint: "use \"name\" (params as an object, the default) or \"position\" (an array in declaration order)")
      }
    }
    return JSONRPCOptions(
      rpcMethod: rpcMethod, paramsBy: paramsBy, notification: r.optionalBool(f, "notification", at: p) ?? false)
  }
}
