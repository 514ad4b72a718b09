internal import APXRuntime

#if canImport(FoundationEssentials)
  internal import FoundationEssentials
#else
  internal import Foundation
#endif

/// Whether `apx` can compile .proto files here: the compiler it would run (`$APX_PROTOC`,
/// `protoc` on PATH, else Python's grpcio-tools), found as APXRuntime's `ProtocCompiler` finds
/// it. The one helper both test targets use to skip, saying why, where none is installed.
package enum ProtocAvailability {
  /// Why a test that needs a compiler is skipped (a `Comment` in the tests).
  package static let missing =
    "neither protoc nor grpcio-tools is installed (pip install grpcio-tools, as .ci/run does; or set APX_PROTOC)"

  /// Whether a compiler is found.
  package static func found() async -> Bool {
    await ProtocCompiler(environment: ProcessInfo.processInfo.environment).findCompiler() != nil
  }
}
