public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A recipe file loaded and checked against the registry: the parse stage of
/// a run (and all of `apx validate RECIPE`).
public struct RecipeFile: Sendable {
  /// The recipe.
  public var recipe: Recipe
  /// The APIs its steps call.
  public var registry: RecipeRegistry
  /// The file's absolute, standardized path (runs are journaled and resumed by it).
  public var absolutePath: String
  /// The parsed document, for locations in messages.
  public var document: JSONDocument

  /// The folder of the recipe file (relative file paths in it are also looked up there).
  public var directory: String { PathText.deletingLastComponent(absolutePath) }

  /// Loads `path`, loads the APIs its steps call, and validates it completely.
  /// - Throws: `APXErrors` (exit 3) with every problem, before anything is sent.
  public static func load(path: String, registryDirectories: [String]) throws -> RecipeFile {
    var reader = try DocumentReader.parse(try FileBytes.read(path), file: path)
    let recipe = try RecipeLoader.load(&reader)
    let files = RegistryFiles(directories: registryDirectories)
    var apis: [String: APIDefinition] = [:]
    var failures: [String: APXError] = [:]
    for name in Set(recipe.steps.map(\.api)) where !name.isEmpty {
      do {
        apis[name] = GraphQLEnvelope.markingSubscriptions(try files.load(api: name))
      } catch let e as APXErrors {
        if let first = e.errors.first { failures[name] = first }
      } catch let e as APXError {
        // A missing API is reported by the validator with suggestions; other problems as they are.
        if e.status != .usage { failures[name] = e }
      }
    }
    let registry = RecipeRegistry(apis: apis, known: files.list().map(\.api), failures: failures)
    let errors = RecipeValidator.validate(recipe, registry: registry, document: reader.document)
    if !errors.isEmpty { throw APXErrors(errors) }
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let file = RecipeFile(
      recipe: recipe, registry: registry, absolutePath: PathText.resolvingSymlinks(absolute),
      document: reader.document)
    // The files its calls need, too: a missing protoset must stop the run before its first step, not at its third.
    let missing = RecipeFileReferences.problems(recipe: recipe, apis: apis, directory: file.directory)
    if !missing.isEmpty { throw APXErrors(missing) }
    return file
  }

  /// True when `path` holds a JSON object with a top-level "steps" key (a recipe, not a registry file).
  public static func isRecipe(path: String) -> Bool {
    guard let bytes = try? FileBytes.read(path), let value = try? JSONParser.parse(bytes) else { return false }
    return RecipeLoader.isRecipe(value)
  }

  /// Validates a recipe completely; returns a one-line summary for `apx validate`.
  public static func summary(path: String, registryDirectories: [String]) throws -> String {
    let file = try load(path: path, registryDirectories: registryDirectories)
    // Defaults of file inputs that are plain paths (a run checks the files it is given).
    let defaults = JSONValue.object(
      file.recipe.inputs.compactMap { input in
        guard let path = input.defaultValue?.stringValue, !path.contains("${") else { return nil }
        return JSONMember(input.name, .string(path))
      })
    let missing = RecipeFileReferences.missingInputFiles(
      recipe: file.recipe, inputs: defaults, directory: file.directory)
    if !missing.isEmpty {
      throw APXErrors(
        missing.map {
          var e = $0; e.status = .invalidDefinition; e.file = path; return e
        })
    }
    let n = file.recipe.steps.count
    return "recipe \(file.recipe.name): \(n) step\(n == 1 ? "" : "s")"
  }
}
