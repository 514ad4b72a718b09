import APXCore
import APXProtobuf

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Loads the descriptor pool of a gRPC endpoint from its schema source — a
/// protoset file, .proto files compiled with protoc, or server reflection —
/// and caches it in the run's `GRPCSession`, so each source is read (or each
/// server asked) once per run.
struct SchemaLoader {
  let cache: SchemaCache
  let environment: [String: String]

  /// The pool for `source`, from the cache when this run already loaded it.
  ///
  /// - Parameters:
  ///   - origin: where the source was named (relative paths start at its folder).
  ///   - reflection: asks the server; used only for `.reflection` (nil: no connection available).
  func pool(
    _ source: SchemaSource, service: String, origin: SchemaOrigin, target: GRPCTarget,
    reflection: (() -> ReflectionClient)?
  ) async throws -> DescriptorPool {
    // Only files need the origin's folder: SystemPackage's path arithmetic was a quarter
    // of a reflected schema's set-up (0.2 ms of an ad-hoc gRPC call).
    var base: String { origin.folder }
    let key: String
    switch source {
    case .reflection: key = "reflection \(target) \(service)"
    case .protoset(let path): key = "protoset " + SchemaPaths.resolve(path, against: base)
    case .protoFiles(let files, let imports):
      key = "proto " + files.joined(separator: ",") + " -I " + imports.joined(separator: ",") + " in " + base
    }
    if let cached = await cache.pool(for: key) { return cached }
    let pool: DescriptorPool
    switch source {
    case .reflection:
      guard let reflection else {
        throw APXError(.usage, "the schema of \(service) comes from server reflection, which needs a connection")
      }
      let files = try await reflection().files(containing: service)
      pool = try ReflectionClient.pool(of: service, from: files, target: target)
    case .protoset(let path):
      let data = try await descriptorSet(source, origin: origin)
      do {
        pool = try protobuf { () throws(ProtobufError) in try DescriptorPool(protoset: data) }
      } catch {
        var e = error
        e.status = origin.status
        e.file = origin.file
        e.message += " (\(SchemaPaths.resolve(path, against: base)))"
        throw e
      }
    case .protoFiles:
      let bytes = try await descriptorSet(source, origin: origin)
      pool = try protobuf { () throws(ProtobufError) in try DescriptorPool(protoset: bytes) }
    }
    await cache.store(pool, for: key)
    return pool
  }

  /// The serialized `FileDescriptorSet` of a file schema: a protoset read, or .proto files
  /// compiled with protoc (relative paths start at `origin`'s folder).
  func descriptorSet(_ source: SchemaSource, origin: SchemaOrigin) async throws -> [UInt8] {
    switch source {
    case .reflection:
      throw APXError(.usage, "a reflection schema has no file: ask the server")
    case .protoset(let path):
      let absolute = SchemaPaths.resolve(path, against: origin.folder)
      do {
        // With FileBytes' 64 MiB limit: a protoset is descriptors only (GitHub-sized APIs make
        // a few hundred KB), and one of gigabytes would otherwise be read whole.
        return try FileBytes.read(absolute)
      } catch {
        throw APXError(
          origin.status, "cannot read the protoset \(absolute)",
          hint: origin.pathRule + "; make one with "
            + "`protoc --include_imports --descriptor_set_out=FILE.protoset FILE.proto`",
          file: origin.file, cause: [error.message, error.hint].compactMap { $0 }.joined(separator: ": "))
      }
    case .protoFiles(let files, let imports):
      return try await ProtocCompiler(environment: environment).compile(
        files: files, importPaths: imports, origin: origin)
    }
  }
}
