import APXCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Per-call settings of a REST request.
public struct RESTCallOptions: Sendable {
  /// Overall time limit for the call, all attempts and redirects included.
  public var timeout: Double?
  public var followRedirects = true
  public var maxRedirects = 10
  /// Statuses that count as success; nil means any 2xx.
  public var expectStatus: [Int]?
  public var mask = SecretMask()

  public init(timeout: Double? = nil, followRedirects: Bool = true, expectStatus: [Int]? = nil, mask: SecretMask = SecretMask()) {
    self.timeout = timeout
    self.followRedirects = followRedirects
    self.expectStatus = expectStatus
    self.mask = mask
  }
}

/// What a finished REST call returned (the body went to the sink).
public struct RESTResult: Sendable {
  public var status: Int
  public var headers: [HeaderField]
  public var url: String
}

/// Sends a planned REST request: follows redirects itself (dropping
/// credentials when the origin changes), streams the body to the sink as it
/// arrives, and turns unexpected statuses into errors that carry the body.
public struct RESTCall: Sendable {
  public let session: HTTPSession

  public init(session: HTTPSession) { self.session = session }

  /// Largest error body kept for the message; the rest is dropped.
  static let errorBodyLimit = 64 * 1024

  public func run(_ initial: HTTPRequestPlan, options: RESTCallOptions, sink: any CallEventSink) async throws(APXError)
    -> RESTResult
  {
    let deadline: NIODeadline =
      options.timeout.map { .now() + .milliseconds(Int64($0 * 1000)) } ?? .distantFuture
    var plan = initial
    var hops = 0
    while true {
      let response: HTTPClientResponse
      do {
        try sink.receive(
          .requestSent(method: plan.method, url: options.mask.mask(plan.url), headers: options.mask.mask(plan.headers), attempt: 1))
        response = try await session.send(plan, deadline: deadline)
      } catch {
        throw NetworkErrorMapper.map(error, url: plan.url, timeout: options.timeout)
      }
      let status = Int(response.status.code)
      let headers = response.headers.map { HeaderField($0.name, $0.value) }
      do {
        try sink.receive(.responseHead(status: status, version: "\(response.version)", headers: options.mask.mask(headers)))
      } catch {
        throw NetworkErrorMapper.map(error, url: plan.url, timeout: options.timeout)
      }

      if options.followRedirects, [301, 302, 303, 307, 308].contains(status),
        let location = response.headers.first(name: "location")
      {
        hops += 1
        guard hops <= options.maxRedirects else {
          throw APXError(.network, "more than \(options.maxRedirects) redirects, last to \(options.mask.mask(location))",
            hint: "the server may be redirecting in a loop")
        }
        // Drain (and drop) the redirect's body so the connection can be reused.
        do { for try await _ in response.body {} } catch {}
        plan = try Self.redirected(plan, status: status, location: location)
        continue
      }

      let ok = options.expectStatus.map { $0.contains(status) } ?? (200..<300).contains(status)
      if !ok {
        var body: [UInt8] = []
        do {
          for try await chunk in response.body where body.count < Self.errorBodyLimit {
            body.append(contentsOf: chunk.readableBytesView.prefix(Self.errorBodyLimit - body.count))
          }
        } catch {}
        throw Self.statusError(status: status, body: body, plan: plan, expected: options.expectStatus, mask: options.mask)
      }
      do {
        for try await chunk in response.body {
          try sink.receive(.bodyChunk(Array(chunk.readableBytesView)))
        }
        try sink.receive(.bodyEnd)
      } catch {
        throw NetworkErrorMapper.map(error, url: plan.url, timeout: options.timeout)
      }
      return RESTResult(status: status, headers: headers, url: plan.url)
    }
  }

  /// The next hop of a redirect. 303 (and 301/302 after POST, as browsers and curl -L do)
  /// become GET without a body; credentials are dropped when the origin changes.
  static func redirected(_ plan: HTTPRequestPlan, status: Int, location: String) throws(APXError) -> HTTPRequestPlan {
    guard let base = URL(string: plan.url), let target = URL(string: location, relativeTo: base)?.absoluteURL else {
      throw APXError(.network, "the server redirected to an invalid URL", cause: location)
    }
    var next = plan
    next.url = target.absoluteString
    if status == 303 || ((status == 301 || status == 302) && plan.method == "POST") {
      next.method = plan.method == "HEAD" ? "HEAD" : "GET"
      next.body = .none
      next.headers.removeAll { $0.name.lowercased() == "content-type" || $0.name.lowercased() == "content-length" }
    } else if case .stdin = plan.body {
      throw APXError(.usage, "the server redirected a request whose body came from stdin, which cannot be sent twice",
        hint: "call the redirect target directly: \(target.absoluteString)")
    }
    if NetworkErrorMapper.origin(plan.url).lowercased() != NetworkErrorMapper.origin(next.url).lowercased() {
      next.headers.removeAll { ["authorization", "cookie", "proxy-authorization"].contains($0.name.lowercased()) }
    }
    return next
  }

  static func statusError(status: Int, body: [UInt8], plan: HTTPRequestPlan, expected: [Int]?, mask: SecretMask)
    -> APXError
  {
    let text = mask.mask(String(decoding: body, as: UTF8.self)).trimmingCharacters(in: .whitespacesAndNewlines)
    let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
    let what = "\(plan.method) \(mask.mask(Self.pathAndQuery(plan.url))) answered \(status) \(reason)"
    let exit: ExitStatus =
      (400..<500).contains(status) ? .httpClientError : ((500..<600).contains(status) ? .httpServerError : .expectation)
    var hint: String?
    switch status {
    case 401: hint = "the credentials were missing or rejected: check the API's auth settings (apx auth status)"
    case 403: hint = "the credentials lack permission for this resource"
    case 404: hint = "check the path parameters and the environment's base URL"
    case 400, 422: hint = "the server rejected the request: see its message above and `apx describe`"
    case 429: hint = "rate limited: wait, or enable retries (--retry N)"
    case 500..<600: hint = "the server failed; try again later or check its logs"
    default:
      if let expected { hint = "the endpoint expects \(expected.map(String.init).joined(separator: " or "))" }
    }
    return APXError(exit, what, hint: hint, cause: text.isEmpty ? nil : text)
  }

  static func pathAndQuery(_ url: String) -> String {
    guard let r = url.range(of: "://") else { return url }
    let rest = url[r.upperBound...]
    return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
  }
}
