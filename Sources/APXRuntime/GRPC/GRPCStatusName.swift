import APXCore
import GRPCCore

/// gRPC status codes by their canonical names (`UNAVAILABLE` is 14), as
/// registry files (`on_grpc_codes`, `retry_codes`) and error messages write them.
public enum GRPCStatusName {
  /// Canonical names indexed by code, 0 (OK) through 16 (UNAUTHENTICATED).
  public static let names = [
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
    "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
    "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
  ]

  /// The name of a code (`CODE_42` for codes outside the standard range).
  public static func name(of code: Int) -> String {
    names.indices.contains(code) ? names[code] : "CODE_\(code)"
  }

  /// The code of a name (case-insensitive; `CANCELED` accepted), or nil.
  public static func code(of name: String) -> Int? {
    let upper = name.uppercased()
    return names.firstIndex(of: upper == "CANCELED" ? "CANCELLED" : upper)
  }

  /// GRPCCore status codes for registry names; an unknown name is a registry error with suggestions.
  static func statusCodes(_ names: [String], file: String) throws(APXError) -> Set<Status.Code> {
    var codes = Set<Status.Code>()
    for name in names {
      guard let code = code(of: name), code != 0, let status = Status.Code(rawValue: code) else {
        throw APXError(
          .invalidDefinition, "\"\(name)\" is not a gRPC status code that can be retried",
          hint: Suggestions.hint(for: name.uppercased(), in: Self.names.dropFirst())
            ?? "use names such as UNAVAILABLE, RESOURCE_EXHAUSTED, ABORTED", file: file)
      }
      codes.insert(status)
    }
    return codes
  }
}
