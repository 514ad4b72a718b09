import APXCore

extension JSONPath {
  /// The values `--select` picks from an answer. A path that does not fit the answer is an
  /// unusable response (exit 9, as a body that is not JSON), not a usage error: the request
  /// was sent. A path that does not parse is refused, as usage, before anything is sent.
  func select(inAnswer value: JSONValue) throws(APXError) -> [JSONValue] {
    do {
      return try select(in: value)
    } catch {
      var unusable = error
      unusable.status = .expectation
      throw unusable
    }
  }
}
