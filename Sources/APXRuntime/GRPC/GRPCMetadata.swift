import APXCore
import GRPCCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Request metadata of a gRPC call: the API's and endpoint's registry
/// headers (with `${env:NAME}` resolved), then `-H` (a `Name:` with no value
/// removes one), then credentials. Names are lower-cased as HTTP/2 requires;
/// `-bin` values are base64 and sent as bytes.
enum GRPCMetadata {
  /// Names the gRPC transport sets itself; sending them would break the call.
  static let reserved: Set<String> = [
    "content-type", "te", "host", "connection", "grpc-timeout", "grpc-encoding", "grpc-accept-encoding",
    "transfer-encoding", "upgrade", "keep-alive",
  ]

  /// Registry headers and `-H`, merged by name; returns ignored names too.
  static func fields(
    _ request: CallRequest, environment: [String: String], mask: inout SecretMask
  ) throws(APXError) -> (fields: [HeaderField], ignored: [String]) {
    var out: [HeaderField] = []
    var ignored: [String] = []
    func put(_ field: HeaderField, resolve: Bool) throws(APXError) {
      let name = field.name.lowercased()
      out.removeAll { $0.name == name }
      guard !field.value.isEmpty else { return }
      if name.hasPrefix(":") || reserved.contains(name) {
        ignored.append(name)
        return
      }
      try validate(name)
      let value =
        resolve ? try TemplateResolver.resolveText(field.value, environment: environment, mask: &mask) : field.value
      if let problem = HeaderSyntax.valueProblem(value, name: name) {
        throw APXError(.usage, problem, hint: "metadata values are one line of text")
      }
      out.append(HeaderField(name, value))
    }
    for h in request.api.headers + request.endpoint.headers { try put(h, resolve: true) }
    for h in request.headers { try put(h, resolve: false) }
    return (out, ignored)
  }

  /// grpc-swift metadata for header fields.
  static func metadata(_ fields: [HeaderField]) throws(APXError) -> Metadata {
    var metadata = Metadata()
    for field in fields {
      if field.name.hasSuffix("-bin") {
        guard let data = Data(base64Encoded: padded(field.value)) else {
          throw APXError(
            .usage, "the value of the binary metadata \"\(field.name)\" is not base64",
            hint: "names ending in -bin carry bytes: give them base64-encoded")
        }
        metadata.addBinary([UInt8](data), forKey: field.name)
      } else {
        metadata.addString(field.value, forKey: field.name)
      }
    }
    return metadata
  }

  /// Header fields for display (binary values as base64).
  static func fields(_ metadata: Metadata) -> [HeaderField] {
    metadata.map { key, value in
      switch value {
      case .string(let s): HeaderField(key, s)
      case .binary(let b): HeaderField(key, Data(b).base64EncodedString())
      }
    }
  }

  private static func validate(_ name: String) throws(APXError) {
    let ok =
      !name.isEmpty
      && name.utf8.allSatisfy { c in
        (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F || c == 0x2E
      }
    guard ok else {
      throw APXError(
        .usage, "\"\(name)\" is not a valid gRPC metadata name",
        hint: "metadata names use lower-case letters, digits, '-', '_' and '.'")
    }
  }

  private static func padded(_ s: String) -> String {
    var t = s.replacingEach("-", with: "+").replacingEach("_", with: "/")
    while t.count % 4 != 0 { t += "=" }
    return t
  }
}
