public import APXCore

/// The run's secret policy: what must never reach a journal, a status line,
/// an event line, a report or dry-run output.
public enum RecipeSecrets {
  /// Secret inputs' values and the values of every environment variable the
  /// recipe or its APIs' auth settings read.
  public static func mask(recipe: Recipe, inputs: JSONValue, apis: [APIDefinition], environment: [String: String])
    -> SecretMask
  {
    var mask = SecretMask()
    for input in recipe.inputs where input.secret {
      if let v = inputs[input.name], v != .null { mask.add(Template.interpolated(v)) }
    }
    var texts: [JSONValue] = []
    for step in recipe.steps {
      texts.append(.object(step.with))
      texts.append(.object(step.headers))
      if let b = step.body { texts.append(b) }
    }
    for input in recipe.inputs { if let d = input.defaultValue { texts.append(d) } }
    for api in apis {
      switch api.auth {
      case .bearer(let token)?: texts.append(.string(token))
      case .apiKey(_, _, let value)?: texts.append(.string(value))
      case .basic(_, let password)?: texts.append(.string(password))
      case .oauth2ClientCredentials(let c)?: texts.append(.string(c.clientSecret))
      case .oauth2Login(let c)?: if let secret = c.clientSecret { texts.append(.string(secret)) }
      default: break
      }
    }
    for text in texts {
      for (_, ref) in (try? Template.references(in: text)) ?? [] where ref.namespace == "env" {
        if let name = ref.variable, let value = environment[name] ?? ref.fallback { mask.add(value) }
      }
    }
    return mask
  }

  /// The inputs as journaled: secret ones masked as `***` (a resume asks for them again).
  public static func journalInputs(recipe: Recipe, inputs: JSONValue) -> [JSONMember] {
    guard case .object(let members) = inputs else { return [] }
    return members.map { m in recipe.input(named: m.key)?.secret == true ? JSONMember(m.key, .string("***")) : m }
  }

  /// Masks a run's failure (message, cause, hint): a secret input may sit in
  /// a URL or a body that the call's own mask did not know about.
  public static func masked(_ error: APXError, with mask: SecretMask) -> APXError {
    var e = error
    e.message = mask.mask(e.message)
    e.cause = e.cause.map(mask.mask)
    e.hint = e.hint.map(mask.mask)
    e.retryVerdict = e.retryVerdict.map(mask.mask)
    return e
  }
}
