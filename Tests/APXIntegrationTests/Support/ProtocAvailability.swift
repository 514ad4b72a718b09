import Foundation
import Testing

/// Whether `apx` can compile .proto files here, found as apx finds a compiler
/// (APXRuntime's ProtocCompiler): `$APX_PROTOC`, `protoc` on PATH, else Python's grpcio-tools
/// (`python3 -m grpc_tools.protoc`, which .ci/run installs).
enum ProtocAvailability {
  static let missing: Comment =
    "neither protoc nor grpcio-tools is installed (pip install grpcio-tools, as .ci/run does; or set APX_PROTOC)"

  static func found() async -> Bool {
    let environment = ProcessInfo.processInfo.environment
    if let explicit = environment["APX_PROTOC"], !explicit.isEmpty { return true }
    let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
    if path.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/protoc") }) { return true }
    for python in ["python3", "python"] {
      guard let dir = path.first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(python)") }) else {
        continue
      }
      let r = try? await ChildProcess.run(
        "\(dir)/\(python)", ["-c", "import grpc_tools.protoc"], environment: environment, timeout: 60)
      return r?.status == 0 && r?.signaled == false
    }
    return false
  }
}
