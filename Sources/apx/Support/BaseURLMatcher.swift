import APXCore
import APXRuntime

/// Finds the registry API an ad-hoc URL belongs to, so its auth, headers and retry policy apply.
///
/// Only what matching needs is read: each registry file's `environments[*].base_url`
/// (a JSON parse that skims over the endpoints, no validation); the one API that matches
/// is then loaded and checked without its endpoints, which an ad-hoc call does not use. A file that does not parse is skipped here (it has nothing to do with this
/// URL unless it matched, and `apx validate` reports it).
enum BaseURLMatcher {
  static func match(_ url: AdHocURL, registry: RegistryFiles, environment: [String: String]) throws -> BaseURLMatch? {
    var best: (path: String, environment: String, baseURL: String, prefix: Int)?
    for (_, path) in registry.list() {
      guard let bytes = try? FileBytes.read(path),
        let document = try? JSONParser.parse(bytes, skimming: "endpoints", keeping: []),
        case .object(let environments)? = document["environments"]
      else { continue }
      for member in environments {
        guard let template = member.value["base_url"]?.stringValue else { continue }
        var mask = SecretMask()
        guard let base = try? TemplateResolver.resolveText(template, environment: environment, mask: &mask),
          BaseURLMatch.covers(baseURL: base, url: url)
        else { continue }
        // The most specific base URL wins (`/api/v2` over `/`); on a tie, the first in registry order.
        let prefix = (try? AdHocURL(parsing: base))?.path.count ?? 0
        if best == nil || prefix > best!.prefix {
          best = (path, member.key, base.hasSuffix("/") ? String(base.dropLast()) : base, prefix)
        }
      }
    }
    guard let best else { return nil }
    let api = try RegistryLoader.load(try FileBytes.read(best.path), file: best.path, endpoint: nil)
    return BaseURLMatch(api: api, environmentName: best.environment, baseURL: best.baseURL)
  }
}
