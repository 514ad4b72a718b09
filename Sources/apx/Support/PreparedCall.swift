import APXCore
import APXRuntime

/// What `apx call` sends, before items are bound: the API and endpoint (from the
/// registry, or made on the spot for a URL), the arguments and headers from the items.
struct PreparedCall {
  var api: APIDefinition
  var endpoint: Endpoint
  var arguments: [ParamArgument]
  var headers: [HeaderField]
  /// Whether the endpoint was made from a URL (its body fields take their values' types).
  var adHoc: Bool
  /// The base URL an ad-hoc call goes to (a URL names its own server); nil: the registry decides.
  var fixedBaseURL: String?
  var environmentName: String
  /// A line for `-v` (which registry API an ad-hoc URL matched).
  var note: String?
  /// The URL of an ad-hoc call.
  var url: AdHocURL?
  /// `--until-event`: more event types that stop the call's event stream.
  var untilEvent: [String] = []

  /// `API.ENDPOINT` from the registry; `Name:value` and `name==value` items go beside its parameters.
  static func registry(target: String, items: [RequestItem], registry: RegistryFiles) throws -> PreparedCall {
    let resolved: CallTarget
    do {
      resolved = try CallTarget.resolve(target, registry: registry)
    } catch var error as APXError where error.reason == .unknownAPI {
      // `apx call example.com` is API.ENDPOINT by the rule; say how to call it as a URL instead.
      error.hint =
        (error.hint.map { $0 + "; " } ?? "") + "to call a URL, write it with a scheme: apx call http://\(target)"
      throw error
    }
    var endpoint = resolved.endpoint
    let applied = try RequestItems.apply(items, to: &endpoint, declareBody: false)
    return PreparedCall(
      api: resolved.api, endpoint: endpoint, arguments: applied.arguments, headers: applied.headers, adHoc: false,
      fixedBaseURL: nil, environmentName: "", note: nil, url: nil)
  }
}
