import APXGRPCReflection

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A broken reflection answer the demo gRPC server can give (`DemoGRPCServer.start(reflectionFault:)`).
public typealias DemoReflectionFault = ReflectionFault

extension ReflectionIndex {
  /// Indexes the descriptor set embedded in the server's source.
  static func embedded(omitJSONNames: Bool = false, fault: ReflectionFault? = nil) throws -> ReflectionIndex {
    guard let data = Data(base64Encoded: EmbeddedDescriptorSet.base64) else {
      throw LookupError(message: "The embedded descriptor set is not valid base64.")
    }
    return try ReflectionIndex(descriptorSetBytes: [UInt8](data), omitJSONNames: omitJSONNames, fault: fault)
  }

}
