public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads what `name=@file`, `name:=@file`, `name=@-.path` and `-d` point to, turning parsed
/// arguments into bound values: item binding for every front end (a call, a recipe, the
/// explorer), apart from the command line's parsing.
public enum ArgumentReader {
  /// Binds arguments for `endpoint`; file parameters stay as paths to stream. Nested items
  /// (`user[name]=Ann`) are folded into their root's value; `[]` items build `body`, the whole body.
  public static func bind(_ arguments: [ParamArgument], endpoint: Endpoint?, stdin: inout StdinDocument) throws
    -> NestedItems.Assembled
  {
    var out: [(name: String, nested: NestedPath?, value: BoundValue)] = []
    for argument in arguments {
      let param = endpoint?.param(named: argument.name)
      let nested = argument.nested
      switch argument.value {
      case .text(let s):
        out.append((argument.name, nested, .json(.string(s))))
      case .json(let v):
        out.append((argument.name, nested, .json(v)))
      case .file(let path):
        if param?.type == .file, nested == nil {
          out.append((argument.name, nested, .file(path: path)))
        } else {
          var text = String(decoding: try FileBytes.read(path), as: UTF8.self)
          if text.hasSuffix("\n") { text.removeLast() }
          out.append((argument.name, nested, .json(.string(text))))
        }
      case .jsonFile(let path):
        do {
          out.append((argument.name, nested, .json(try JSONParser.parse(try FileBytes.read(path)))))
        } catch let e as JSONSyntaxError {
          throw APXError(
            .usage, "\(path) is not valid JSON: \(e.message) at \(e.location)",
            hint: "\(argument.name):=@file needs a JSON file")
        }
      case .stdinPath(let pathText):
        let document = try stdin.read()
        let results = try JSONPath(parsing: pathText).select(in: document)
        guard results.count == 1, let value = results.first else {
          throw APXError(
            .usage, "\(argument.name)=@-\(pathText) selects \(results.count) values from stdin, expected exactly one",
            hint: "narrow the path, e.g. .items[0].id")
        }
        if value == .null {
          throw APXError(
            .usage, "\(argument.name)=@-\(pathText): stdin has no value at \(pathText)",
            hint: "the JSON on stdin was: \(String(JSONPrinter(style: .compact).string(document).prefix(200)))")
        }
        out.append((argument.name, nested, .json(value)))
      }
    }
    return try NestedItems.assemble(out) { name in
      guard let param = endpoint?.param(named: name) else { return true }
      return [.body, .form, .multipart, .message].contains(param.location)
    }
  }

  /// The body `[]:=1 []:=2` items build: a JSON array sent as `-d` would send it.
  public static func arrayBody(_ array: JSONValue, endpoint: Endpoint, hasData: Bool) throws(APXError)
    -> RequestBuilder.DataBody
  {
    guard !hasData else {
      throw APXError(
        .usage, "-d gives the whole body, and so do top-level array items ([]=…)", hint: "use one or the other")
    }
    guard endpoint.kind.capabilities.takesArrayBody else {
      throw APXError(
        .usage,
        "top-level array items ([]=…) build an HTTP body, and a \(endpoint.kind.rawValue) request is not one",
        hint: endpoint.kind.capabilities.defaultParamLocation == .message
          ? "a request message is an object: set its fields with name=value" : "give each param as name=value")
    }
    return .json(Array(array.compactJSON.utf8))
  }

  /// `-d TEXT`, `-d @file`, `-d @-`.
  public static func dataBody(_ text: String) throws(APXError) -> RequestBuilder.DataBody {
    if text == "@-" { return .stdin }
    if text.hasPrefix("@") { return .file(path: String(text.dropFirst())) }
    do {
      _ = try JSONParser.parse(text)
    } catch {
      throw APXError(
        .usage, "-d is not valid JSON: \(error.message) at column \(error.location.column)",
        hint: "quote it for the shell: -d '{\"name\": \"value\"}', or send a file with -d @file")
    }
    return .json(Array(text.utf8))
  }
}
