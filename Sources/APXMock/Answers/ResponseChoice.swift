import APXCore

/// Which declared answer a request gets: `Prefer: code=N` and `Prefer: example=NAME` pick one
/// (as Prism does); otherwise the success the endpoint's `expect_status` names, else the first
/// success, else `default`. Without declared answers, the first success `expect_status` names
/// is the status (a 202 where a client checks for one), else 201 for POST and 200.
struct ResponseChoice {
  /// What a `Prefer` header asks for.
  struct Preference: Equatable {
    var code: Int?
    var example: String?

    init(header: String?) {
      for part in (header ?? "").split(whereSeparator: { $0 == "," || $0 == ";" }) where part.contains("=") {
        let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace }
        let value =
          pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2
          ? String(pair[1].dropFirst().dropLast()) : pair[1]
        switch pair[0].lowercased() {
        case "code": code = Int(value)
        case "example": example = value
        default: break
        }
      }
    }
  }

  /// The answer picked, with the status it is sent with and the example named (if any).
  struct Picked {
    var response: EndpointResponse?
    var status: Int
    var example: JSONValue?
    /// The example `Prefer: example=NAME` asked for, served as declared.
    var namedExample: String?
  }

  /// Why a preference cannot be met.
  struct Unmet: Error {
    var detail: String
  }

  static func pick(
    _ responses: [EndpointResponse], preference: Preference, method: String, expected: [Int] = []
  ) throws(Unmet) -> Picked {
    var chosen: EndpointResponse?
    if let code = preference.code {
      chosen =
        responses.first { $0.code == code && $0.status.count == 3 && Int($0.status) != nil }
        ?? responses.first { $0.status.uppercased() == "\(code / 100)XX" }
        ?? responses.first { $0.status == "default" }
      guard chosen != nil else {
        throw Unmet(
          detail:
            "Prefer asks for status \(code), which this endpoint does not declare (declared: \(responses.map(\.status).joined(separator: ", ")))"
        )
      }
    }
    if let name = preference.example {
      let pool = chosen.map { [$0] } ?? responses
      guard let withExample = pool.first(where: { $0.examples.contains { $0.key == name } }) else {
        throw Unmet(detail: "Prefer asks for example \"\(name)\", which this endpoint does not declare")
      }
      return Picked(
        response: withExample, status: status(of: withExample, preferred: preference.code, method: method),
        example: withExample.examples.first { $0.key == name }?.value, namedExample: name)
    }
    let successes = responses.filter { ($0.code ?? 0) / 100 == 2 }
    chosen =
      chosen ?? successes.first { expected.contains($0.code ?? 0) }
      ?? successes.min { ($0.code ?? 0) < ($1.code ?? 0) }
      ?? responses.first { $0.status == "default" }
    guard let chosen else {
      let status = expected.first { $0 / 100 == 2 } ?? (method == "POST" ? 201 : 200)
      return Picked(response: nil, status: status, example: nil)
    }
    return Picked(
      response: chosen, status: status(of: chosen, preferred: preference.code, method: method),
      example: chosen.examples.first?.value)
  }

  private static func status(of response: EndpointResponse, preferred: Int?, method: String) -> Int {
    if let preferred, response.code.map({ $0 / 100 == preferred / 100 }) ?? true { return preferred }
    return response.code ?? 200
  }
}
