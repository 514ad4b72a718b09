import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads what `name=@file`, `name:=@file`, `name=@-.path` and `-d` point to,
/// turning parsed arguments into bound values.
enum ArgumentReader {
  /// Binds arguments for `endpoint`; file parameters stay as paths to stream.
  static func bind(_ arguments: [ParamArgument], endpoint: Endpoint?, stdin: inout StdinDocument) throws
    -> [(name: String, value: BoundValue)]
  {
    var out: [(name: String, value: BoundValue)] = []
    for argument in arguments {
      let param = endpoint?.param(named: argument.name)
      switch argument.value {
      case .text(let s):
        out.append((argument.name, .json(.string(s))))
      case .json(let v):
        out.append((argument.name, .json(v)))
      case .file(let path):
        if param?.type == .file {
          out.append((argument.name, .file(path: path)))
        } else {
          var text = String(decoding: try FileBytes.read(path), as: UTF8.self)
          if text.hasSuffix("\n") { text.removeLast() }
          out.append((argument.name, .json(.string(text))))
        }
      case .jsonFile(let path):
        do {
          out.append((argument.name, .json(try JSONParser.parse(try FileBytes.read(path)))))
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
        out.append((argument.name, .json(value)))
      }
    }
    return out
  }

  /// `-d TEXT`, `-d @file`, `-d @-`.
  static func dataBody(_ text: String) throws(APXError) -> RequestBuilder.DataBody {
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

/// The JSON document on stdin, read once on first use (for `name=@-.path`).
struct StdinDocument {
  private var cached: JSONValue?

  mutating func read() throws -> JSONValue {
    if let cached { return cached }
    let data = try StandardInput.readAll()
    do {
      let value = try JSONParser.parse(data)
      cached = value
      return value
    } catch {
      throw APXError(
        .usage,
        data.isEmpty
          ? "name=@-.path needs a JSON document on stdin, but stdin was empty"
          : "stdin is not valid JSON: \(error.message) at \(error.location)",
        hint: "pipe the output of another apx call: apx call a.b | apx call c.d id=@-.id")
    }
  }
}
