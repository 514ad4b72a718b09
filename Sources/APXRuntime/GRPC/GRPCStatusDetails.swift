import APXCore
import APXProtobuf

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads the `grpc-status-details-bin` trailer: a serialized
/// `google.rpc.Status` whose `details` are `Any` messages (error info,
/// quota failures, bad requests...). Decoded through the call's pool when it
/// knows the types; unknown detail types keep their bytes as base64.
enum GRPCStatusDetails {
  /// The trailer's JSON form: `{"code": 8, "message": "...", "details": [...]}`.
  static func json(_ bytes: [UInt8], pool: DescriptorPool?) -> JSONValue {
    if let pool, let status = pool.message("google.rpc.Status"), let json = try? pool.decode(bytes, as: status) {
      return json
    }
    var code = 0
    var message = ""
    var details: [JSONValue] = []
    var reader = ReflectionWire.Reader(bytes: bytes[...])
    do {
      while let (field, value) = try reader.next() {
        switch (field, value) {
        case (1, .varint(let v)): code = Int(Int32(truncatingIfNeeded: v))
        case (2, .bytes(let text)): message = String(decoding: text, as: UTF8.self)
        case (3, .bytes(let any)): details.append(detail(Array(any), pool: pool))
        default: continue
        }
      }
    } catch {
      return .object([JSONMember("undecodable", .string(Data(bytes).base64EncodedString()))])
    }
    var members = [JSONMember("code", .number(String(code)))]
    if !message.isEmpty { members.append(JSONMember("message", .string(message))) }
    if !details.isEmpty { members.append(JSONMember("details", .array(details))) }
    return .object(members)
  }

  /// One `google.protobuf.Any`: decoded when the pool has its type, else base64.
  private static func detail(_ bytes: [UInt8], pool: DescriptorPool?) -> JSONValue {
    var typeURL = ""
    var payload: [UInt8] = []
    var reader = ReflectionWire.Reader(bytes: bytes[...])
    while let (field, value) = try? reader.next() {
      if field == 1, case .bytes(let t) = value { typeURL = String(decoding: t, as: UTF8.self) }
      if field == 2, case .bytes(let v) = value { payload = Array(v) }
    }
    let typeName = typeURL.split(separator: "/").last.map(String.init) ?? typeURL
    if let pool, let type = pool.message(typeName), let json = try? pool.decode(payload, as: type) {
      if case .object(let members) = json { return .object([JSONMember("@type", .string(typeURL))] + members) }
      return .object([JSONMember("@type", .string(typeURL)), JSONMember("value", json)])
    }
    return .object([
      JSONMember("@type", .string(typeURL)), JSONMember("value", .string(Data(payload).base64EncodedString())),
    ])
  }
}
