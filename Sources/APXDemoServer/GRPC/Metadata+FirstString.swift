import GRPCCore

extension Metadata {
  /// The first string value stored under `key` (keys are case-insensitive), if any.
  func firstString(_ key: String) -> String? {
    var values = self[stringValues: key].makeIterator()
    return values.next()
  }
}
