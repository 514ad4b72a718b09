import APXCore
import APXRuntime

/// `apx call --curl`: the `curl` command line that sends the request apx would
/// send (REST, SSE, JSON-RPC), quoted for a POSIX shell.
///
/// Files stay files (`--data-binary @path`, `-F name=@path`), stdin stays stdin
/// (`--data-binary @-`). The line does not follow redirects (no `-L`): curl
/// would carry API-key headers to another origin, which apx never does.
enum CurlCommandLine {
  /// The words of the line (quote them with `ShellWords.line`).
  ///
  /// - Parameter masked: secrets as `***` (false: as they would be sent).
  static func words(_ preview: HTTPRequestPreview, masked: Bool, global: GlobalOptions) throws(APXError) -> [String] {
    let plan = preview.plan
    let mask = masked ? preview.mask : SecretMask()
    var words = ["curl"]
    // Print each event or line as it arrives: an SSE endpoint, or a request that accepts a stream
    // (an ad-hoc call's Accept does, and apx prints such an answer as it comes).
    if preview.kind.resultShape.stream || acceptsStream(plan.headers) { words.append("-N") }
    words += transportFlags(global, masked: masked)
    let hasBody: Bool = if case .none = plan.body { false } else { true }
    switch plan.method {
    case "HEAD" where !hasBody: words.append("--head")
    case "GET" where !hasBody, "POST" where hasBody: break
    default: words += ["-X", plan.method]
    }
    var multipart = false
    if case .multipart = plan.body { multipart = true }
    for header in masked ? mask.mask(plan.headers) : plan.headers {
      // curl writes the multipart Content-Type itself, with its own boundary.
      if multipart && header.name.lowercased() == "content-type" { continue }
      words += ["-H", header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"]
    }
    words += try body(plan.body, mask: mask)
    let url = mask.mask(plan.url)
    // curl reads [] and {} in a URL as globs, and removes /./ and /../ unless told not to.
    if url.contains(where: { "[]{}".contains($0) }) { words.append("--globoff") }
    if url.contains("/./") || url.contains("/../") || url.hasSuffix("/.") || url.hasSuffix("/..") {
      words.append("--path-as-is")
    }
    words.append(url)
    return words
  }

  /// Whether an Accept header names a streamed media type (SSE, NDJSON, JSON Lines, JSON text sequences).
  static func acceptsStream(_ headers: [HeaderField]) -> Bool {
    headers.contains { header in
      guard header.name.lowercased() == "accept" else { return false }
      let value = header.value.lowercased()
      return ["text/event-stream", "ndjson", "jsonl", "json-seq"].contains { value.contains($0) }
    }
  }

  /// curl's equivalents of the HTTP transport flags apx uses.
  ///
  /// - Parameter masked: a proxy's password as `***` (false: as it would be sent).
  static func transportFlags(_ global: GlobalOptions, masked: Bool) -> [String] {
    var words: [String] = []
    if global.insecure { words.append("--insecure") }
    if let cacert = global.cacert { words += ["--cacert", cacert] }
    if let cert = global.cert, let key = global.key { words += ["--cert", cert, "--key", key] }
    // curl reads the proxy variables itself; only the flags need saying.
    if let proxy = global.proxy {
      let shown = masked && !proxy.isEmpty ? (try? ProxyServer(url: proxy, source: "--proxy")).map(\.display) : nil
      words += ["--proxy", shown ?? proxy]
    }
    if let noproxy = global.noproxy { words += ["--noproxy", noproxy] }
    if global.http1Only { words.append("--http1.1") }
    if global.connectTimeout != ConnectionOptions.defaultConnectTimeout {
      words += ["--connect-timeout", NumberText.plain(global.connectTimeout)]
    }
    if let timeout = global.timeout { words += ["--max-time", NumberText.plain(timeout)] }
    // apx counts attempts, curl counts retries after the first.
    if let retry = global.retry, retry > 1 { words += ["--retry", String(retry - 1)] }
    return words
  }

  static func body(_ body: RequestBody, mask: SecretMask) throws(APXError) -> [String] {
    switch body {
    case .none:
      return []
    case .bytes(let bytes, _):
      guard let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0) else {
        throw APXError(
          .usage, "the request body is binary, which a command line cannot hold",
          hint: "put it in a file and pass the file (e.g. -d @FILE), or use --dry-run")
      }
      return ["--data-binary", mask.mask(text)]
    case .file(let path, _):
      return ["--data-binary", "@" + path]
    case .stdin:
      return ["--data-binary", "@-"]
    case .multipart(let parts, _):
      var words: [String] = []
      for part in parts {
        switch part {
        case .field(let name, let value, let type?):
          try checkPartName(name)
          // A quoted -F value is text (never a file), and ;type= sets the part's Content-Type.
          words += ["-F", "\(name)=\(quoted(mask.mask(value)));type=\(type)"]
        case .field(let name, let value, nil):
          try checkPartName(name)
          // --form-string takes the value literally (-F would read a leading @ or < as a file).
          words += ["--form-string", "\(name)=\(mask.mask(value))"]
        case .file(let name, let path, let filename, let type):
          try checkPartName(name)
          words += ["-F", "\(name)=@\(quoted(path));filename=\(quoted(filename));type=\(type)"]
        }
      }
      return words
    }
  }

  /// curl splits `-F` at the first `=`: a part name cannot hold one.
  private static func checkPartName(_ name: String) throws(APXError) {
    guard !name.contains("=") else {
      throw APXError(
        .usage, "the multipart part name \"\(name)\" holds '=', which curl's -F cannot express",
        hint: "use --dry-run to see the request, or rename the part")
    }
  }

  /// A `-F` file name or path in double quotes, `"` and `\` escaped (curl's own syntax).
  private static func quoted(_ text: String) -> String {
    "\"" + text.replacingEach("\\", with: "\\\\").replacingEach("\"", with: "\\\"") + "\""
  }
}
