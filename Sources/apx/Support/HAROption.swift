import APXCore
import APXRuntime
import ArgumentParser

/// `--har FILE` (`apx call`, `apx run`): an HTTP Archive of every exchange.
struct HAROption: ParsableArguments {
  @Option(
    name: .customLong("har"),
    help: ArgumentHelp(
      "Write every exchange (redirects, retries, token requests and pages included) to FILE as an HTTP "
        + "Archive (HAR 1.2), secrets masked as -v masks them; written when the command ends, success or not.",
      valueName: "FILE"),
    completion: .file(extensions: ["har"]))
  var path: String?

  /// The archive to record into, nil without `--har`.
  func log() -> HARLog? { path.map { _ in HARLog() } }

  /// Writes the archive (when there is one) as `-O` writes a file: beside FILE, then renamed
  /// over it, so an existing FILE keeps its mode (a 0600 archive stays private), a symbolic
  /// link is written through, and a full disk is an error naming FILE and leaving it whole.
  func write(_ log: HARLog?) throws(APXError) {
    guard let path, let log else { return }
    let file = try OutputFile(path: path, flag: "--har")
    file.stream.write(log.json(creatorVersion: APXVersion.current))
    try file.commit()
  }

  /// Runs `body` with the archive, and writes it when `body` ends, success or not.
  /// A FILE that could not be written is refused first (exit 2), before anything is sent.
  func recording<T>(_ body: (HARLog?) async throws -> T) async throws -> T {
    if let path { try OutputFile.checkWritable(path, flag: "--har") }
    let log = log()
    let result: T
    do {
      result = try await body(log)
    } catch {
      try? write(log)
      throw error
    }
    try write(log)
    return result
  }
}
