import APXServing
import HTTPTypes
import Hummingbird
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `POST /jsonrpc`: a strict JSON-RPC 2.0 server (https://www.jsonrpc.org/specification)
/// over HTTP, as real implementations behave.
///
/// Rejects what the specification rejects: a body that is not JSON (-32700), a
/// request without `"jsonrpc": "2.0"`, a method that is not a string, params that
/// are neither an array nor an object, an id that is an object, array or boolean,
/// unknown members, an empty batch (-32600); unknown methods (-32601); wrong
/// params (-32602). The HTTP layer wants `Content-Type: application/json` (415)
/// and an `Accept` that allows JSON (406). Notifications get no answer; a request
/// of notifications only is answered 204. JSON-RPC errors travel with status 200.
///
/// Methods: `add` (a, b), `subtract` (minuend, subtrahend: by name or position),
/// `divide` (dividend, divisor; a zero divisor is application error 1001 with
/// data), `constants` (numbers whose text and key order a client must keep),
/// and `log` (message; usually a notification; as a call it answers the count).
struct JSONRPCRoutes: Sendable {
  /// Largest request body read.
  static let maxBodyBytes = 1024 * 1024

  let logged = LogCounter()

  func register(on router: Router<ServerRequestContext>) {
    router.post("jsonrpc") { request, _ in await handle(request) }
  }

  private func handle(_ request: Request) async -> Response {
    var request = request
    let type = request.headers[.contentType]?.lowercased() ?? ""
    guard type.split(separator: ";").first?.trimmingSpaces() == "application/json" else {
      return answer(
        Self.error(.null, -32600, "Invalid Request", data: .string("Content-Type must be application/json")),
        status: .unsupportedMediaType)
    }
    if let accept = request.headers[.accept]?.lowercased(),
      !(accept.contains("application/json") || accept.contains("*/*") || accept.contains("application/*"))
    {
      return answer(
        Self.error(.null, -32600, "Invalid Request", data: .string("Accept must allow application/json")),
        status: .notAcceptable)
    }
    let body: ByteBuffer
    do {
      body = try await request.collectBody(upTo: Self.maxBodyBytes)
    } catch {
      return answer(
        Self.error(.null, -32600, "Invalid Request", data: .string("the body is larger than 1 MiB")),
        status: .contentTooLarge)
    }
    guard let document = DemoJSON.parse(Data(body.readableBytesView)) else {
      return answer(Self.error(.null, -32700, "Parse error"))
    }
    switch document {
    case .array(let calls):
      guard !calls.isEmpty else { return answer(Self.error(.null, -32600, "Invalid Request")) }
      let answers = calls.compactMap(call)
      return answers.isEmpty ? DemoResponse.empty(.noContent) : answer(.array(answers))
    default:
      return call(document).map { answer($0) } ?? DemoResponse.empty(.noContent)
    }
  }

  private func answer(_ value: JSONText, status: HTTPResponse.Status = .ok) -> Response {
    DemoResponse.json(value, status: status)
  }

  /// The answer to one request object, nil for a notification.
  private func call(_ value: DemoJSON) -> JSONText? {
    guard case .object(let members) = value else { return Self.error(.null, -32600, "Invalid Request") }
    let id = members["id"]
    let idText: JSONText
    switch id {
    case nil, .null?: idText = .null
    case .int?, .double?, .string?: idText = id!.text
    default: return Self.error(.null, -32600, "Invalid Request", data: .string("id must be a string, number or null"))
    }
    let allowed: Set<String> = ["jsonrpc", "method", "params", "id"]
    if let extra = members.keys.sorted().first(where: { !allowed.contains($0) }) {
      return Self.error(idText, -32600, "Invalid Request", data: .string("unknown member \"\(extra)\""))
    }
    guard members["jsonrpc"] == .string("2.0") else {
      return Self.error(idText, -32600, "Invalid Request", data: .string("\"jsonrpc\" must be exactly \"2.0\""))
    }
    guard case .string(let method)? = members["method"] else {
      return Self.error(idText, -32600, "Invalid Request", data: .string("\"method\" must be a string"))
    }
    let params = members["params"]
    switch params {
    case nil, .array?, .object?: break
    default:
      return Self.error(idText, -32600, "Invalid Request", data: .string("\"params\" must be an array or an object"))
    }
    let outcome = run(method, params: params)
    guard id != nil else { return nil }  // a notification: never answered, not even an error
    switch outcome {
    case .success(let result):
      return .object([("jsonrpc", .string("2.0")), ("result", result), ("id", idText)])
    case .failure(let failure):
      return Self.error(idText, failure.code, failure.message, data: failure.data)
    }
  }

  struct Failure: Error {
    let code: Int
    let message: String
    var data: JSONText?
  }

  private func run(_ method: String, params: DemoJSON?) -> Result<JSONText, Failure> {
    do {
      switch method {
      case "add":
        let (a, b) = try Self.numbers(params, ["a", "b"])
        return .success(Self.number(a + b))
      case "subtract":
        let (a, b) = try Self.numbers(params, ["minuend", "subtrahend"])
        return .success(Self.number(a - b))
      case "divide":
        let (a, b) = try Self.numbers(params, ["dividend", "divisor"])
        guard b != 0 else {
          throw Failure(
            code: 1001, message: "division by zero",
            data: .object([("dividend", Self.number(a)), ("divisor", .int(0))]))
        }
        return .success(Self.number(a / b))
      case "constants":
        try Self.noParams(params)
        // Literal number text and a key order that is not alphabetical: a lossless client keeps both.
        return .success(
          .object([
            ("zeta", .int(1)), ("alpha", .number("9007199254740993")), ("price", .number("1.10")),
            ("tiny", .number("1e-7")), ("huge", .number("123456789012345678901234567890")),
          ]))
      case "log":
        let message = try Self.values(params, ["message"])[0]
        guard case .string = message else { throw Self.invalidParams("message must be a string") }
        return .success(.object([("logged", .int(logged.add()))]))
      default:
        return .failure(Failure(code: -32601, message: "Method not found", data: .string(method)))
      }
    } catch let failure as Failure {
      return .failure(failure)
    } catch {
      return .failure(Failure(code: -32603, message: "Internal error"))
    }
  }

  /// The named values, from an object by name or an array by position; -32602 otherwise.
  static func values(_ params: DemoJSON?, _ names: [String]) throws -> [DemoJSON] {
    switch params {
    case .object(let members)?:
      if let extra = members.keys.sorted().first(where: { !names.contains($0) }) {
        throw invalidParams("unknown parameter \"\(extra)\"; expected \(names.joined(separator: ", "))")
      }
      return try names.map { name in
        guard let value = members[name] else { throw invalidParams("missing parameter \"\(name)\"") }
        return value
      }
    case .array(let items)?:
      guard items.count == names.count else {
        throw invalidParams("expected \(names.count) parameters (\(names.joined(separator: ", "))), got \(items.count)")
      }
      return items
    default:
      throw invalidParams("expected parameters \(names.joined(separator: ", "))")
    }
  }

  static func numbers(_ params: DemoJSON?, _ names: [String]) throws -> (Double, Double) {
    let values = try values(params, names)
    guard let a = values[0].number, let b = values[1].number else {
      throw invalidParams("\(names.joined(separator: " and ")) must be numbers")
    }
    return (a, b)
  }

  static func noParams(_ params: DemoJSON?) throws {
    switch params {
    case nil, .array([])?, .object([:])?: return
    default: throw invalidParams("this method takes no parameters")
    }
  }

  static func invalidParams(_ detail: String) -> Failure {
    Failure(code: -32602, message: "Invalid params", data: .string(detail))
  }

  /// A whole number as an integer, anything else as Swift's shortest decimal.
  static func number(_ value: Double) -> JSONText {
    if value.rounded() == value, abs(value) < 1e15 { return .int(Int(value)) }
    return .double(value)
  }

  static func error(_ id: JSONText, _ code: Int, _ message: String, data: JSONText? = nil) -> JSONText {
    var fields: [(String, JSONText)] = [("code", .int(code)), ("message", .string(message))]
    if let data { fields.append(("data", data)) }
    return .object([("jsonrpc", .string("2.0")), ("error", .object(fields)), ("id", id)])
  }
}

/// How many `log` calls (notifications included) the server has seen.
final class LogCounter: Sendable {
  private let count = Mutex(0)

  /// Counts one more and returns the total.
  func add() -> Int {
    count.withLock {
      $0 += 1; return $0
    }
  }
}
