import APXCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Maps transport failures to `APXError`s that say what happened and what to
/// try, with the documented exit status (network or timeout).
enum NetworkErrorMapper {
  static func map(_ error: any Error, url: String, timeout: Double?) -> APXError {
    if let apx = error as? APXError { return apx }
    if let tls = error as? HTTPTLSFailure { return tls.apxError }
    let target = Self.origin(url)
    if let e = error as? HTTPClientError {
      switch e {
      case .deadlineExceeded, .readTimeout, .writeTimeout:
        return APXError(
          .timeout, "the request to \(target) timed out" + (timeout.map { " after \(format($0))s" } ?? ""),
          hint: "raise the limit with --timeout SECONDS, or check that the server is not stuck")
      case .connectTimeout, .getConnectionFromPoolTimeout:
        return APXError(
          .timeout, "could not connect to \(target) in time",
          hint: "check the host and port and that nothing (a firewall, a VPN) drops the packets")
      case .tlsHandshakeTimeout:
        return APXError(.timeout, "the TLS handshake with \(target) timed out", hint: "is this a TLS port? try http://")
      case .remoteConnectionClosed:
        return APXError(
          .network, "\(target) closed the connection before answering",
          hint: "the server may have crashed or dropped the request; try again, or check its logs")
      case .invalidURL, .emptyHost, .emptyScheme:
        return APXError(.usage, "\(url) is not a valid URL", hint: "check --base-url and the environment's base_url")
      case .redirectLimitReached, .redirectCycleDetected:
        return APXError(.network, "too many redirects from \(target)", cause: e.description, underlying: e)
      case .cancelled:
        return APXError(.interrupted, "the request to \(target) was cancelled")
      default:
        if e.description.contains("unsupportedScheme") {
          return APXError(.usage, "unsupported URL scheme in \(url)", hint: "use http:// or https://")
        }
        return APXError(.network, "the request to \(target) failed", cause: e.description, underlying: e)
      }
    }
    if let e = error as? HTTPParserError, e == .invalidEOFState {
      return APXError(
        .network, "\(target) closed the connection before the whole answer arrived",
        hint: "the server may have crashed or cut the body short; try again, or check its logs",
        cause: String(describing: e), underlying: e)
    }
    if let e = error as? HTTPParserError {
      // The bytes that came back do not parse as HTTP/1.1: a wrong port, a TLS server called
      // with http://, or a broken server. Without this, "the request failed (invalid constant
      // string)" named neither.
      return APXError(
        .network, "the answer from \(target) is not valid HTTP",
        hint: "check the port, and the scheme (https:// for a server that speaks TLS); "
          + "if both are right, the server sent a malformed response",
        cause: String(describing: e), underlying: e)
    }
    if let e = error as? NIOConnectionError {
      if e.connectionErrors.isEmpty, e.dnsAError != nil || e.dnsAAAAError != nil {
        return unresolvedHost(e.host, cause: String(describing: e.dnsAError ?? e.dnsAAAAError!), underlying: e)
      }
      return connectionFailure(
        target, cause: e.connectionErrors.first.map { String(describing: $0.error) }, underlying: e)
    }
    if let e = error as? IOError {
      if e.errnoCode == ECONNREFUSED { return connectionFailure(target, cause: nil, underlying: e) }
      return APXError(.network, "network error talking to \(target)", underlying: e)
    }
    if let e = error as? ChannelError {
      switch e {
      case .connectTimeout:
        return APXError(.timeout, "could not connect to \(target) in time", hint: "check the host and port")
      default:
        return APXError(.network, "network error talking to \(target)", underlying: e)
      }
    }
    if error is NIOHTTPDecompression.DecompressionError || error is NIOHTTPDecompression.ExtraDecompressionError {
      if error as? NIOHTTPDecompression.DecompressionError == .limit {
        return APXError(
          .network,
          "the compressed response from \(target) expands more than \(HTTPSession.decompressionRatioLimit) times its size",
          hint: "that looks like a decompression bomb; send -H 'Accept-Encoding: identity' to get it uncompressed")
      }
      return APXError(
        .network, "the compressed response from \(target) is corrupt", hint: "try -H 'Accept-Encoding: identity'",
        cause: String(describing: error), underlying: error)
    }
    let typeName = String(reflecting: type(of: error))
    if typeName.contains("NIOSSL") || typeName.contains("BoringSSL") {
      // Its text holds source paths of the machine that built apx: only its reason names are shown.
      var mapped = APXError(
        .network, "TLS failed with \(target)",
        hint: "check that the URL should use https://, that the certificate is valid for this host, "
          + "or pass --cacert FILE for a private CA (--insecure skips verification; avoid it)",
        underlying: error)
      mapped.cause = HTTPTLSFailure.reasons(in: String(describing: error))
      return mapped
    }
    if error is CancellationError {
      return APXError(.interrupted, "the request to \(target) was cancelled")
    }
    return APXError(.network, "the request to \(target) failed", underlying: error)
  }

  /// How a failed request counts for retries: connection problems and
  /// timeouts may be retried; a TLS verdict on the peer (a certificate that
  /// fails verification, a host name it does not hold, a server that does not
  /// speak TLS) is the same on every attempt and is not, nor is anything else
  /// (a bad URL, a cancelled call).
  static func retryOutcome(of error: any Error, mapped: APXError) -> RetryOutcome? {
    if let tls = error as? HTTPTLSFailure {
      return isDeterministicTLSFailure(tls.underlying) || tls.problem != .other ? nil : .connectionFailure
    }
    if isDeterministicTLSFailure(error) { return nil }
    if mapped.reason == .h2cOnly { return nil }
    // Broken framing (a duplicate Content-Length, Content-Length with chunked, a header past the
    // parser's limit) is what the server sends every time. Only an answer cut short may be luck.
    if let parser = error as? HTTPParserError, parser != .invalidEOFState { return nil }
    if isHostNotFound(error) { return .hostNotFound }
    switch mapped.status {
    case .network: return .connectionFailure
    case .timeout: return .timeout
    default: return nil
    }
  }

  /// BoringSSL reasons that another attempt cannot change.
  static let deterministicTLSReasons = [
    "CERTIFICATE_VERIFY_FAILED", "WRONG_VERSION_NUMBER", "ALERT_UNKNOWN_CA", "ALERT_BAD_CERTIFICATE",
    "ALERT_CERTIFICATE_REQUIRED", "ALERT_CERTIFICATE_EXPIRED", "ALERT_CERTIFICATE_UNKNOWN",
    "ALERT_HANDSHAKE_FAILURE", "ALERT_PROTOCOL_VERSION", "NO_SHARED_CIPHER", "UNSUPPORTED_PROTOCOL",
  ]

  /// Whether `error` is a TLS failure that repeats on every attempt.
  static func isDeterministicTLSFailure(_ error: any Error) -> Bool {
    if let extra = error as? NIOSSLExtraError { return extra == .failedToValidateHostname }
    let typeName = String(reflecting: type(of: error))
    guard typeName.contains("NIOSSL") || typeName.contains("BoringSSL") else { return false }
    let text = String(describing: error)
    return deterministicTLSReasons.contains { text.contains($0) }
  }

  /// Whether every lookup of a connection attempt got the resolver's definite "no such name"
  /// (EAI_NONAME: NXDOMAIN, "Name or service not known"). A resolver that could not be reached
  /// (EAI_AGAIN, "Temporary failure in name resolution") may answer next time and is not this.
  static func isHostNotFound(_ error: any Error) -> Bool {
    guard let e = error as? NIOConnectionError, e.connectionErrors.isEmpty else { return false }
    let lookups = [e.dnsAError, e.dnsAAAAError].compactMap { $0 }
    return !lookups.isEmpty
      && lookups.allSatisfy { ($0 as? SocketAddressError.UnknownHost)?.errorCode == Int(EAI_NONAME) }
  }

  /// Whether `error` is a `connect` that nothing accepted (ECONNREFUSED).
  static func isRefusal(_ error: any Error) -> Bool { (error as? IOError)?.errnoCode == ECONNREFUSED }

  /// A host name that does not resolve (REST, SSE and gRPC alike).
  static func unresolvedHost(_ host: String, cause: String, underlying: (any Error & Sendable)? = nil) -> APXError {
    APXError(
      .network, "could not resolve the host \(host)",
      hint: hostNotFoundAdvice(in: "the base URL"), cause: cause,
      underlying: underlying, reason: .hostNotFound)
  }

  /// What to check when a host does not resolve: the host in `place` (the base URL of a
  /// registry call; `Executor.aboutTheURL` says the URL for a URL the user typed).
  static func hostNotFoundAdvice(in place: String) -> String {
    "check the spelling of the host in \(place), and your DNS or network connection"
  }

  static func connectionFailure(_ target: String, cause: String?, underlying: (any Error & Sendable)? = nil)
    -> APXError
  {
    var error = APXError(
      .network, "could not connect to \(target): connection refused",
      hint: "is the server running? Check the port, or \(pointElsewhere) "
        + "(for the demo backend: apx demo, or add --demo)",
      underlying: underlying, reason: .connectionRefused)
    // A plain refusal says it all: no cause line, even when an error is kept.
    error.cause = cause
    return error
  }

  /// The advice of a refused connection's hint for registry calls (REST, SSE, gRPC), which
  /// `Executor.aboutTheURL` replaces for a URL the user typed.
  static let pointElsewhere = "use --base-url / --env to point elsewhere"

  /// `scheme://host:port` of a URL, for messages (never the path or query, which may hold keys).
  static func origin(_ url: String) -> String {
    guard let schemeEnd = url.firstRange(of: "://") else { return url }
    let rest = url[schemeEnd.upperBound...]
    let hostEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
    return String(url[..<schemeEnd.upperBound]) + String(rest[..<hostEnd])
  }

  /// `scheme://host:port/path` of a URL, for messages that must say which endpoint (no query or fragment,
  /// which may hold keys).
  static func endpoint(_ url: String) -> String {
    let end = url.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? url.endIndex
    return String(url[..<end])
  }

  static func format(_ d: Double) -> String {
    NumberText.plain(d)
  }
}
