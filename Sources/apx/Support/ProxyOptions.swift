import APXCore
import APXRuntime
import ArgumentParser

/// `--proxy` and `--noproxy`: one declaration for every command that connects (`GlobalOptions`
/// and `apx import`), with the same environment variables and config keys.
struct ProxyOptions: ParsableArguments {
  @Option(
    name: .customLong("proxy"),
    help: ArgumentHelp(
      "Go through this proxy: http://[USER:PASSWORD@]HOST:PORT or socks5://HOST:PORT (default: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; \"\" for none).",
      valueName: "URL"))
  var proxy: String?

  @Option(
    name: .customLong("noproxy"),
    help: ArgumentHelp(
      "Hosts to reach directly, comma-separated: names (and names under them), IP addresses, CIDR ranges, or * (default: NO_PROXY).",
      valueName: "LIST"))
  var noproxy: String?

  /// The rules: flags, then the proxy variables, then the config file. Exit 2 for a proxy URL
  /// apx cannot use, 3 for an invalid config file.
  func rules(_ context: Context) throws(APXError) -> ProxyRules {
    let chosen = try ProxyChoice.filled(proxy: proxy, noproxy: noproxy, context: context)
    return try ProxyRules(flag: chosen.proxy, noProxyFlag: chosen.noproxy, environment: context.environment)
  }
}

/// The order of the proxy settings' sources, shared by every command.
enum ProxyChoice {
  /// `proxy` and `noproxy` with the config file's keys where neither a flag nor an environment
  /// variable chose: the variables outrank the file, as they do for every other key.
  static func filled(proxy: String?, noproxy: String?, context: Context) throws(APXError)
    -> (proxy: String?, noproxy: String?)
  {
    let config = try context.configResult.get()
    let proxyVariables = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
    var result = (proxy: proxy, noproxy: noproxy)
    if proxy == nil, !proxyVariables.contains(where: { !(context.environment[$0] ?? "").isEmpty }) {
      result.proxy = config.proxy
    }
    if noproxy == nil, (context.environment["no_proxy"] ?? context.environment["NO_PROXY"] ?? "").isEmpty {
      result.noproxy = config.noproxy
    }
    return result
  }
}
