import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apx call --curl` for gRPC: the `grpcurl` command line that makes the call
/// apx would make, quoted for a POSIX shell. The schema comes from where apx
/// takes it (`-protoset`, `-import-path`/`-proto`, else server reflection);
/// the messages are the JSON apx would encode.
enum GRPCurlCommandLine {
  /// The words of the line (quote them with `ShellWords.line`).
  ///
  /// - Parameter masked: secrets as `***` (false: as they would be sent).
  static func words(_ preview: GRPCRequestPreview, masked: Bool, global: GlobalOptions) throws(APXError) -> [String] {
    if let retry = global.retry, retry > 1 {
      throw APXError(
        .usage, "grpcurl does not retry, so --retry \(retry) has no equivalent on its command line",
        hint: "drop --retry, or use --dry-run")
    }
    let mask = masked ? preview.mask : SecretMask()
    // grpcurl has no proxy flags but reads the variables, as grpc-go does: `env` sets them.
    var words: [String] = []
    if let proxy = global.proxy {
      let shown = masked && !proxy.isEmpty ? (try? ProxyServer(url: proxy, source: "--proxy")).map(\.display) : nil
      words += ["env", "HTTPS_PROXY=" + (shown ?? proxy)]
    }
    if let noproxy = global.noproxy { words += (words.isEmpty ? ["env"] : []) + ["NO_PROXY=" + noproxy] }
    words.append("grpcurl")
    if !preview.target.useTLS { words.append("-plaintext") }
    if global.insecure { words.append("-insecure") }
    if let cacert = global.cacert { words += ["-cacert", cacert] }
    if let cert = global.cert, let key = global.key { words += ["-cert", cert, "-key", key] }
    if let authority = global.authority { words += ["-authority", authority] }
    if global.connectTimeout != ConnectionOptions.defaultConnectTimeout {
      words += ["-connect-timeout", NumberText.plain(global.connectTimeout)]
    }
    if let timeout = global.timeout { words += ["-max-time", NumberText.plain(timeout)] }
    if let size = global.maxMessageSize { words += ["-max-msg-sz", String(size)] }
    if global.emitDefaults { words.append("-emit-defaults") }
    words += schemaFlags(preview.schema)
    for field in masked ? mask.mask(preview.metadata) : preview.metadata {
      words += ["-H", "\(field.name): \(field.value)"]
    }
    let printer = JSONPrinter(style: .compact)
    switch preview.messages {
    case .single(let message):
      words += ["-d", mask.mask(printer.string(message))]
    case .stream(let list):
      // grpcurl reads a stream of messages as JSON objects one after another.
      words += ["-d", mask.mask(list.map { printer.string($0) }.joined(separator: "\n"))]
    case .stdin(let fields):
      guard fields.objectMembers?.isEmpty ?? true else {
        throw APXError(
          .usage, "grpcurl cannot set name=value fields on messages it reads from stdin",
          hint: "put the fields in the messages themselves, or give them with -d '[...]' or -d @FILE")
      }
      words += ["-d", "@"]
    }
    words += [
      Origin(host: preview.target.host, port: preview.target.port).authority, "\(preview.service)/\(preview.method)",
    ]
    return words
  }

  /// `-protoset FILE`, or `-import-path DIR -proto FILE` (grpcurl names .proto files relative to
  /// an import path), or nothing (server reflection).
  static func schemaFlags(_ schema: SchemaSource) -> [String] {
    switch schema {
    case .reflection:
      return []
    case .protoset(let path):
      return ["-protoset", path]
    case .protoFiles(let files, let imports):
      // Without import paths apx (as protoc) searches each file's own folder.
      var paths = imports
      if paths.isEmpty {
        for file in files {
          let folder = PathText.deletingLastComponent(file)
          if !paths.contains(folder) { paths.append(folder) }
        }
      }
      var words = paths.flatMap { ["-import-path", $0] }
      for file in files {
        let root = paths.first { file.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        words += ["-proto", root.map { String(file.dropFirst($0.hasSuffix("/") ? $0.count : $0.count + 1)) } ?? file]
      }
      return words
    }
  }
}
