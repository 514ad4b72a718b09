/// Binds a run's input values (from `name=value` arguments, a resumed
/// journal, or defaults) to the recipe's declared inputs, converting text to
/// each input's type.
public enum RecipeInputBinder {
  /// One value given for an input, before conversion.
  public struct Given: Sendable, Hashable {
    public var name: String
    public var value: JSONValue
    /// Given as `name=@path` (a file reference).
    public var isFile: Bool

    /// Makes a given value.
    public init(name: String, value: JSONValue, isFile: Bool = false) {
      self.name = name
      self.value = value
      self.isFile = isFile
    }
  }

  /// The inputs object (`${input...}`), in declaration order.
  /// - Parameters:
  ///   - given: values from the command line (or a journal).
  ///   - resolve: resolves templates in defaults (`${env:NAME}`, `${run.id}`).
  /// - Throws: `APXErrors` listing every unknown, missing or ill-typed input.
  public static func bind(
    _ recipe: Recipe, given: [Given], resolve: (TemplateReference) throws(APXError) -> JSONValue?
  ) throws(APXErrors) -> JSONValue {
    var errors: [APXError] = []
    var members: [JSONMember] = []
    for g in given where recipe.input(named: g.name) == nil {
      let names = recipe.inputs.map(\.name)
      errors.append(
        APXError(
          .usage, "the recipe \"\(recipe.name)\" has no input \"\(g.name)\"",
          hint: Suggestions.hint(for: g.name, in: names)
            ?? (names.isEmpty ? "it takes no inputs" : "its inputs: \(names.joined(separator: ", "))")))
    }
    for input in recipe.inputs {
      if let g = given.last(where: { $0.name == input.name }) {
        do {
          members.append(JSONMember(input.name, try convert(g.value, to: input, isFile: g.isFile)))
        } catch {
          errors.append(error)
        }
      } else if let d = input.defaultValue {
        do {
          let rendered = try Template.renderStrings(in: d, resolve: resolve)
          members.append(JSONMember(input.name, try convert(rendered, to: input, isFile: false)))
        } catch {
          var e = error
          e.message = "the default of input \"\(input.name)\": " + e.message
          errors.append(e)
        }
      } else if input.required {
        errors.append(
          APXError(
            .usage, "the recipe \"\(recipe.name)\" needs the input \"\(input.name)\"",
            hint: "pass \(input.name)=\(placeholder(input))" + (input.description.map { " (\($0))" } ?? "")))
      } else {
        members.append(JSONMember(input.name, .null))
      }
    }
    if !errors.isEmpty { throw APXErrors(errors) }
    return .object(members)
  }

  /// Converts one value to the input's type.
  public static func convert(_ value: JSONValue, to input: RecipeInput, isFile: Bool) throws(APXError) -> JSONValue {
    func mismatch(_ expected: String) -> APXError {
      APXError(
        .usage, "the input \(input.name) must be \(expected), got \(value.compactJSON)",
        hint: "pass \(input.name)=\(placeholder(input))")
    }
    switch (input.type, value) {
    case (.string, .string), (.file, .string), (.number, .number), (.boolean, .bool), (.json, _):
      if input.type == .json, case .string(let s) = value, !isFile, let parsed = try? JSONParser.parse(s) {
        return parsed
      }
      return value
    case (.string, .number), (.string, .bool):
      return .string(Template.interpolated(value))
    case (.number, .string(let s)):
      guard (try? JSONParser.parse(s))?.typeName == "number" else { throw mismatch("a number") }
      return .number(s)
    case (.boolean, .string(let s)):
      switch s.lowercased() {
      case "true", "yes", "1", "on": return .bool(true)
      case "false", "no", "0", "off": return .bool(false)
      default: throw mismatch("true or false")
      }
    case (.file, _):
      throw mismatch("a file path (\(input.name)=@path or \(input.name)=path)")
    default:
      throw mismatch("a \(input.type.rawValue)")
    }
  }

  static func placeholder(_ input: RecipeInput) -> String {
    switch input.type {
    case .file: return "@path"
    case .number: return "3"
    case .boolean: return "true"
    case .json: return "'{...}' (or \(input.name):=json)"
    case .string: return "text"
    }
  }
}
