import APXCore
import APXRuntime
import ArgumentParser

/// `apx list [API]`: what the registry holds, as JSON (or a table on request).
struct ListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the registry's APIs, or one API's endpoints.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("Only this API's endpoints.", valueName: "API"))
  var api: String?

  func run() async throws {
    let context = Context.shared
    let registry = RegistryFiles(directories: context.registryDirectories(global.registry))
    var rows: [JSONValue] = []
    if let api {
      let definition = try registry.load(api: api)
      for e in definition.endpoints { rows.append(Self.row(definition, e)) }
    } else {
      var problems: [String] = []
      for (name, path) in registry.list() {
        do {
          let definition = try RegistryFiles.load(path: path)
          for e in definition.endpoints { rows.append(Self.row(definition, e)) }
        } catch {
          problems.append("\(name) (\(path)): run `apx validate \(path)`")
        }
      }
      if rows.isEmpty, problems.isEmpty {
        throw APXError(
          .usage, "the registry is empty",
          hint: "searched \(registry.directories.joined(separator: ", ")); add <api>.json files or pass --registry DIR")
      }
      for p in problems { context.warn("apx: warning: skipped invalid registry file \(p)") }
    }
    try ValuePrinter.print(.array(rows), global: global, context: context, tableByDefault: context.stdoutIsTerminal)
  }

  static func row(_ api: APIDefinition, _ e: Endpoint) -> JSONValue {
    var members = [
      JSONMember("endpoint", .string("\(api.name).\(e.name)")),
      JSONMember("kind", .string(e.kind.rawValue)),
    ]
    switch e.kind {
    case .grpc:
      members.append(JSONMember("target", .string("\(e.grpc?.service ?? "")/\(e.grpc?.method ?? "")")))
    default:
      members.append(JSONMember("target", .string("\(e.method) \(e.path)")))
    }
    members.append(JSONMember("description", e.description.map(JSONValue.string) ?? .null))
    return .object(members)
  }
}

/// Prints one JSON value per the output flags (commands other than `call`).
enum ValuePrinter {
  static func print(_ value: JSONValue, global: GlobalOptions, context: Context, tableByDefault: Bool = false) throws {
    var results = [value]
    if let s = global.select { results = try JSONPath(parsing: s).select(in: value) }
    let format = global.output ?? (tableByDefault && global.select == nil ? .table : nil)
    let color = context.useColor(global.color, terminal: context.stdoutIsTerminal)
    for result in results {
      switch format {
      case .table:
        context.stdout.write(TableFormatter().format(result))
      case .ndjson:
        for item in result.arrayValue ?? [result] {
          context.stdout.write(JSONPrinter(style: .compact).bytes(item) + [0x0A])
        }
      case .raw where result.stringValue != nil:
        context.stdout.write(result.stringValue! + "\n")
      default:
        let pretty = context.stdoutIsTerminal || format == .json
        context.stdout.write(JSONPrinter(style: pretty ? .pretty : .compact, colors: color ? .default : nil).bytes(result) + [0x0A])
      }
    }
    context.stdout.flush()
  }
}
