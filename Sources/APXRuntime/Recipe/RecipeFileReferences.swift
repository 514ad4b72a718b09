public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The files a recipe will need, checked before its first step so nothing is
/// sent when one is missing: the schema files of the endpoints it calls
/// (`RegistryFileReferences`), the files its steps name literally for `file`
/// parameters, and the files its `file` inputs name. Relative paths are
/// resolved as a run resolves them (`RecipePaths`).
public enum RecipeFileReferences {
  /// One error (exit 3) per file the recipe's calls need that cannot be read.
  public static func problems(recipe: Recipe, apis: [String: APIDefinition], directory: String) -> [APXError] {
    let steps = recipe.steps.flatMap { [$0] + $0.batch }
    var errors: [APXError] = []
    for name in Set(steps.map(\.api)).sorted() {
      guard let api = apis[name] else { continue }
      errors += RegistryFileReferences.problems(
        in: api, endpoints: Set(steps.filter { $0.api == name }.map(\.endpoint)))
    }
    for step in steps {
      guard let endpoint = apis[step.api]?.endpoint(named: step.endpoint) else { continue }
      for member in step.with {
        guard endpoint.param(named: member.key)?.type == .file, case .string(let path) = member.value,
          !path.contains("${"), !exists(path, directory: directory)
        else { continue }
        errors.append(
          APXError(
            .invalidDefinition, "step \"\(step.id)\": with.\(member.key): \(path) does not exist",
            hint: "relative paths start at the current folder, then at the recipe's folder", file: recipe.file,
            location: step.location))
      }
    }
    return errors
  }

  /// One error (exit 2) per `file` input whose value in `inputs` names no file:
  /// a default is not checked when the command line was parsed, as given values are.
  public static func missingInputFiles(recipe: Recipe, inputs: JSONValue, directory: String) -> [APXError] {
    recipe.inputs.filter { $0.type == .file }.compactMap { input in
      guard let path = inputs[input.name]?.stringValue, !exists(path, directory: directory) else { return nil }
      return APXError(
        .usage, "\(path) does not exist (input \(input.name))",
        hint: "pass \(input.name)=PATH, or fix its default in \(recipe.file)")
    }
  }

  /// Whether `path` names something a run would find.
  static func exists(_ path: String, directory: String) -> Bool {
    FileManager.default.fileExists(atPath: RecipePaths.resolve(path, recipeDirectory: directory))
  }
}
