public import APXCore
import APXProtobuf
import GRPCCore

/// One message type as `apx describe grpc://HOST:PORT/package.Message` shows it.
public struct GRPCMessageSummary: Sendable {
  /// The fully qualified name, e.g. `classnotes.v1.Lesson`.
  public var type: String
  /// The fields as declared (`repeated string tags = 3`), in field-number order.
  public var fields: [String]
  /// A JSON value of the message with every field a placeholder of its type.
  public var template: JSONValue
}

extension GRPCInspector {
  /// The message type `fullName`: over reflection from `address` (the file that declares it),
  /// or from the schema files. Nil when the server or the files declare no message of that name.
  public static func message(
    _ fullName: String, at address: String, schema: SchemaSource, origin: SchemaOrigin,
    settings: GRPCSettings = GRPCSettings(), headers: [HeaderField] = [], timeout: Double = 10,
    environment: [String: String]
  ) async throws -> GRPCMessageSummary? {
    let pool: DescriptorPool
    if case .reflection = schema {
      let target = try GRPCTarget(parsing: address)
      let metadata = try GRPCMetadata.metadata(headers.map { HeaderField($0.name.lowercased(), $0.value) })
      let files: [[UInt8]]
      do {
        files = try await GRPCSession.with(settings) { session in
          let reflection = ReflectionClient(
            client: try await session.client(for: target, timeout: timeout), target: target, metadata: metadata,
            timeout: GRPCRetry.duration(timeout))
          return try await reflection.files(containing: fullName)
        }
      } catch let error as RPCError where error.code == .notFound {
        return nil
      }
      pool = try ReflectionClient.pool(of: fullName, from: files, target: target)
    } else {
      let loader = SchemaLoader(cache: SchemaCache(), environment: environment)
      pool = try await loader.pool(
        schema, service: "", origin: origin, target: try GRPCTarget(parsing: "grpc://127.0.0.1:1"), reflection: nil)
    }
    guard let message = pool.message(fullName) else { return nil }
    return GRPCMessageSummary(
      type: message.fullName, fields: message.fields.map(\.description), template: pool.template(for: message))
  }
}
