import APXCore
import APXRuntime
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apx validate [PATH ...]`: checks registry (and recipe) files without sending anything.
struct ValidateCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Check registry files; print file:line:column errors and exit 3 when any is invalid.",
    discussion:
      "With no PATH, checks every registry file in the registry folders. A folder PATH checks its *.json files.")

  @OptionGroup(title: "Registry options") var registryOptions: RegistryOptions
  @OptionGroup(title: "Output options") var outputOptions: OutputOptions

  func validate() throws {
    if let problem = outputOptions.problem { throw ValidationError(problem) }
  }

  @Argument(
    help: ArgumentHelp("Files or folders to check.", valueName: "PATH"), completion: .file(extensions: ["json"]))
  var paths: [String] = []

  func run(in context: Context) async throws {
    var files: [String] = []
    if paths.isEmpty {
      files = RegistryFiles(directories: context.registryDirectories(registryOptions.registry)).list().map(\.path)
    } else {
      for p in paths {
        guard let isDirectory = FileKind.isDirectory(p) else {
          throw APXError(.usage, "\(p) does not exist", hint: "pass registry files or folders")
        }
        if isDirectory {
          let names = (try? FileManager.default.contentsOfDirectory(atPath: p)) ?? []
          files += names.sorted().filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.map { p + "/" + $0 }
        } else {
          files.append(p)
        }
      }
    }
    if files.isEmpty { throw APXError(.usage, "no registry files to check", hint: "pass a PATH or --registry DIR") }
    var errors: [APXError] = []
    var results: [JSONValue] = []
    for file in files {
      if DefinitionFile.isJSONSchema(path: file) {
        // A shell glob such as Endpoints/*.json also picks up the registry's own schema.
        context.warn("apx: skipped \(file): a JSON Schema, not a registry or recipe file")
        results.append(
          .object([
            JSONMember("file", .string(file)), JSONMember("ok", .bool(true)),
            JSONMember("skipped", .string("a JSON Schema, not a registry or recipe file")),
          ]))
        continue
      }
      do {
        let definition = try DefinitionFile.validate(
          path: file, registryDirectories: context.registryDirectories(registryOptions.registry))
        results.append(
          .object([
            JSONMember("file", .string(file)), JSONMember("ok", .bool(true)),
            JSONMember("summary", .string(definition)),
          ]))
      } catch let e as APXErrors {
        errors += e.errors
        results.append(
          .object([
            JSONMember("file", .string(file)), JSONMember("ok", .bool(false)),
            JSONMember("errors", .int(e.errors.count)),
          ]))
      } catch let e as APXError {
        errors.append(e)
        results.append(
          .object([JSONMember("file", .string(file)), JSONMember("ok", .bool(false)), JSONMember("errors", .int(1))]))
      }
    }
    try ValuePrinter.print(.array(results), output: outputOptions, context: context)
    if !errors.isEmpty {
      var all = errors
      all[0].status = .invalidDefinition
      throw APXErrors(all)
    }
  }
}

/// Validation of one definition file.
enum DefinitionFile {
  /// True for a JSON Schema document (a top-level `"$schema"` naming json-schema.org,
  /// and neither `"api"` nor `"steps"`), such as `Endpoints/registry.schema.json`.
  static func isJSONSchema(path: String) -> Bool {
    guard let data = FileManager.default.contents(atPath: path),
      let members = (try? JSONParser.parse(Array(data)))?.objectMembers,
      let schema = members.first(where: { $0.key == "$schema" })?.value.stringValue
    else { return false }
    return schema.contains("json-schema.org") && !members.contains { $0.key == "api" || $0.key == "steps" }
  }

  /// Loads the file as a registry; returns a one-line summary.
  static func validate(path: String, registryDirectories: [String]) throws -> String {
    // A JSON file with a top-level "steps" key is a recipe: checked against the registry.
    if RecipeFile.isRecipe(path: path) {
      return try RecipeFile.summary(path: path, registryDirectories: registryDirectories)
    }
    let api = try RegistryFiles.load(path: path)
    let base = PathText.lastComponent(path)
    if base != api.name + ".json" {
      throw APXError(
        .invalidDefinition, "the file defines the API \"\(api.name)\" but is named \(base)",
        hint: "apx finds an API by its file name: rename it to \(api.name).json", file: path)
    }
    // Files it names (protosets, .proto files) must be there too: a registry copied without them loads.
    let missing = RegistryFileReferences.problems(in: api)
    if !missing.isEmpty { throw APXErrors(missing) }
    return "\(api.name): \(api.endpoints.count) endpoint\(api.endpoints.count == 1 ? "" : "s")"
  }
}
