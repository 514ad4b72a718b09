import Subprocess

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

/// What a finished child process printed, and how it ended.
struct ChildProcessOutput: Sendable {
  enum Ending: Sendable, Equatable {
    case exited(Int32)
    case signaled(Int32)
  }
  var ending: Ending
  var stdout: [UInt8]
  var stderr: [UInt8]
}

/// Why a child process gave no output.
enum ChildProcessFailure: Error, Sendable {
  /// It could not be started (not found, not executable); the detail says why.
  case cannotStart(String)
  /// It printed more than the limit on stdout or stderr.
  case tooMuchOutput(limit: Int)
  /// It ran past its time limit and was stopped.
  case timedOut
}

/// Runs a program (never through a shell) with stdin from /dev/null (or given bytes) and
/// collects what it prints, within a time limit. For `token_command`, `protoc` and `secret-tool`.
///
/// swift-subprocess rather than Foundation's `Process`: its pipes are close-on-exec and it
/// closes every other descriptor in the child with `close_range`, where `Process` on Linux
/// lists /proc/self/fd (a crash with many descriptors open), and it needs only
/// FoundationEssentials, not the ICU data full Foundation brings.
struct ChildProcessRunner: Sendable {
  /// The child's whole environment.
  var environment: [String: String]
  /// The most stdout or stderr may hold; more fails the run.
  var outputLimit: Int

  /// Runs `executable` with `arguments`. The child leads a process group of its own; at
  /// `timeout` seconds the group gets SIGTERM, then SIGKILL 2 s later (a child that ignores
  /// SIGTERM, or a grandchild holding its pipes open), and the run ends with `.timedOut`.
  ///
  /// - Parameter input: the child's stdin (a secret for `secret-tool`, never an argument);
  ///   nil: /dev/null.
  func run(_ executable: String, _ arguments: [String], timeout: Double, input: [UInt8]? = nil)
    async throws(ChildProcessFailure) -> ChildProcessOutput
  {
    var options = PlatformOptions()
    options.processGroupID = 0
    options.teardownSequence = [
      .send(signal: .terminate, toProcessGroup: true, allowedDurationToNextStep: .seconds(2))
    ]
    var env: [Environment.Key: String] = [:]
    // The keychain secrets read for the run travel beside the environment; no child gets them.
    for (key, value) in environment where !KeychainSecrets.isSecretKey(key) {
      env[Environment.Key(stringLiteral: key)] = value
    }
    let configuration = Configuration(
      executable: .path(FilePath(executable)), arguments: Arguments(arguments), environment: .custom(env),
      platformOptions: options)
    let limit = outputLimit
    let milliseconds = Int64(min(max(timeout, 0), 1e9) * 1000)
    do {
      return try await withThrowingTaskGroup(of: ChildProcessOutput?.self) { group in
        group.addTask {
          let result =
            if let input {
              try await Subprocess.run(
                configuration, input: .array(input), output: .bytes(limit: limit), error: .bytes(limit: limit))
            } else {
              try await Subprocess.run(
                configuration, input: .none, output: .bytes(limit: limit), error: .bytes(limit: limit))
            }
          let ending: ChildProcessOutput.Ending
          switch result.terminationStatus {
          case .exited(let code): ending = .exited(code)
          case .signaled(let signal): ending = .signaled(signal)
          }
          return ChildProcessOutput(ending: ending, stdout: result.standardOutput, stderr: result.standardError)
        }
        group.addTask {
          try await Task.sleep(for: .milliseconds(milliseconds))
          return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let output = first else { throw ChildProcessFailure.timedOut }
        return output
      }
    } catch let failure as ChildProcessFailure {
      throw failure
    } catch let error as SubprocessError where error.code == .outputLimitExceeded {
      throw .tooMuchOutput(limit: limit)
    } catch {
      throw .cannotStart("\(error)")
    }
  }
}
