import APXCore
import APXRuntime

/// Finds the registry API an ad-hoc URL belongs to, so its auth, headers and retry policy apply.
///
/// Only what matching needs is read: each registry file's `environments[*].base_url`
/// (a JSON parse that skims over the endpoints, no validation); the one API that matches
/// is then loaded and checked without its endpoints, which an ad-hoc call does not use. A file that does not parse is skipped here (it has nothing to do with this
/// URL unless it matched, and `apx validate` reports it).
///
/// The longest base URL wins (`/api/v2` over `/`). Base URLs of several APIs equally long are
/// a choice of credentials apx will not make silently: refused, listing them, unless the call
/// goes without credentials (`--no-auth`), which then takes none of them.
enum BaseURLMatcher {
  static func match(
    _ url: AdHocURL, registry: RegistryFiles, environment: [String: String], withoutAuth: Bool = false
  ) throws -> BaseURLMatch? {
    var best: (path: String, environment: String, baseURL: String, prefix: Int)?
    // The APIs (by name) whose base URLs are as long as the best one's.
    var tied: [String] = []
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
        let prefix = (try? AdHocURL(parsing: base))?.path.count ?? 0
        let name = document["api"]?.stringValue ?? path
        if best == nil || prefix > best!.prefix {
          best = (path, member.key, base.hasSuffix("/") ? String(base.dropLast()) : base, prefix)
          tied = [name]
        } else if prefix == best!.prefix, !tied.contains(name) {
          tied.append(name)
        }
      }
    }
    guard let best else { return nil }
    if tied.count > 1 {
      if withoutAuth { return nil }
      // A credential in the URL's query (`?access_token=`) is not repeated in the error.
      var mask = SecretMask()
      for value in CredentialParams.values(inURL: url.text) { mask.add(value) }
      throw APXError(
        .usage,
        "\(mask.mask(url.text)) is under the base URLs of \(tied.count) registry APIs (\(tied.joined(separator: ", "))), "
          + "and apx will not pick whose credentials to send",
        hint: "name one API's file with --registry FILE, call its endpoint as API.ENDPOINT, "
          + "or send no credentials with --no-auth")
    }
    let api = try RegistryLoader.load(try FileBytes.read(best.path), file: best.path, endpoint: nil)
    return BaseURLMatch(api: api, environmentName: best.environment, baseURL: best.baseURL)
  }
}
