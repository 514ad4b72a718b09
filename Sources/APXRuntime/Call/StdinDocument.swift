public import APXCore

/// The JSON document on stdin, read once on first use (for `name=@-.path`).
public struct StdinDocument {
  private var cached: JSONValue?

  public init() {}

  /// The document, parsed on the first call; the same value after.
  public mutating func read() throws -> JSONValue {
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
