public import APXCore

/// Resolves `${env:NAME}` and `${keychain:NAME}` templates in registry strings (headers, base
/// URLs, auth fields) against the process environment and the secrets read for the run. Values taken from the
/// environment are registered as secrets when `secret` is set, so tokens
/// never show up in verbose output or errors.
public enum TemplateResolver {
  /// Renders `text`; references other than `env:` are errors here (they belong to recipes).
  /// - Parameter unsetStatus: the exit status when a variable is not set: `.auth` for
  ///   credentials, `.usage` for configuration such as a base URL.
  public static func resolveText(
    _ text: String, environment: [String: String], mask: inout SecretMask, secret: Bool = false,
    unsetStatus: ExitStatus = .auth
  ) throws(APXError) -> String {
    guard Template.mayContainReferences(text) else { return text }
    let template = try Template(parsing: text)
    var found: [String] = []
    var fromKeychain: [String] = []
    let rendered = try template.renderText { reference throws(APXError) -> JSONValue? in
      guard reference.namespace == "env" || reference.namespace == "keychain", let name = reference.variable else {
        throw APXError(
          .usage, "\(reference) cannot be used here",
          hint:
            "only ${env:NAME} and ${keychain:NAME} work in registry files; ${input...} and ${steps...} belong to recipes"
        )
      }
      if reference.namespace == "keychain" {
        // Read before the call (`KeychainSecrets.load`): always a secret.
        guard let value = environment[KeychainSecrets.environmentKey(name)] ?? reference.fallback else {
          throw APXError(
            unsetStatus, "no secret named \(name) is stored (the registry uses ${keychain:\(name)} in \"\(text)\")",
            hint: "store it, read from stdin: apx auth set-secret \(name) < FILE")
        }
        fromKeychain.append(value)
        return .string(value)
      }
      guard let value = environment[name] ?? reference.fallback else {
        throw APXError(
          unsetStatus, "the environment variable \(name) is not set",
          hint: "export \(name)=... (the registry uses it in \"\(text)\")")
      }
      found.append(value)
      return .string(value)
    }
    if secret { for v in found { mask.add(v) } }
    for v in fromKeychain { mask.add(v) }
    return rendered
  }
}
