extension Array where Element == String {
  /// The strings with `separator` between them, as the standard library's `joined(separator:)`
  /// gives; this overload, more specific than the library's on any `BidirectionalCollection` of
  /// strings, is the one every `[String]` in apx's modules uses.
  ///
  /// Why: the library's version is not specialised for arrays, and its first call in a process
  /// looks up an associated type by its mangled name, which scans all ~10,800 protocol
  /// conformance records of apx's static binary: 5% of the CPU samples of a registry gRPC call
  /// (`perf`, release build), paid wherever the first `joined` happens to be.
  @inlinable
  public func joined(separator: String = "") -> String {
    guard let first else { return "" }
    var result = first
    result.reserveCapacity(reduce(separator.utf8.count * (count - 1)) { $0 + $1.utf8.count })
    for part in self[1...] {
      result += separator
      result += part
    }
    return result
  }
}
