import APXCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// OpenID Connect discovery (OpenID Connect Discovery 1.0 §4): the endpoints an issuer's
/// `/.well-known/openid-configuration` names.
struct OpenIDEndpoints: Sendable, Hashable {
  var authorization: String?
  var token: String?
  var deviceAuthorization: String?
  var revocation: String?

  /// Reads the issuer's document; its `issuer` must be the one asked for (§4.3), so a
  /// document served for another issuer is refused.
  static func discover(
    _ issuer: String, session: HTTPSession, timeout: Double?, apiName: String, file: String
  ) async throws -> OpenIDEndpoints {
    let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
    let url = trimmed + "/.well-known/openid-configuration"
    let plan = HTTPRequestPlan(
      method: "GET", url: url, headers: [HeaderField("Accept", "application/json")], body: .none)
    let deadline: NIODeadline =
      timeout.map { .now() + .milliseconds(DurationConversion.milliseconds($0)) } ?? .now() + .seconds(30)
    let status: Int
    let body: ByteBuffer
    do {
      let response = try await session.send(plan, deadline: deadline)
      status = Int(response.status.code)
      body = try await response.body.collect(upTo: 1 << 20)
    } catch {
      var mapped = NetworkErrorMapper.map(error, url: url, timeout: timeout)
      mapped.message = "cannot read the OpenID configuration of the API \"\(apiName)\" from \(url): " + mapped.message
      mapped.hint = "check \"issuer\" in \(file), or give the endpoints themselves"
      throw mapped
    }
    guard (200..<300).contains(status), case .object? = try? JSONParser.parse(Array(body.readableBytesView)),
      let json = try? JSONParser.parse(Array(body.readableBytesView))
    else {
      throw APXError(
        .auth, "the issuer of the API \"\(apiName)\" has no OpenID configuration at \(url) (HTTP \(status))",
        hint: "check \"issuer\" in \(file) (the URL before /.well-known), or give the endpoints themselves")
    }
    let named = json["issuer"]?.stringValue
    guard named == issuer || named == trimmed else {
      throw APXError(
        .auth,
        "the OpenID configuration at \(url) is for the issuer \(named.map { "\"\($0)\"" } ?? "(none)"), not \"\(issuer)\"",
        hint: "set \"issuer\" in \(file) to the issuer the server names")
    }
    return OpenIDEndpoints(
      authorization: json["authorization_endpoint"]?.stringValue, token: json["token_endpoint"]?.stringValue,
      deviceAuthorization: json["device_authorization_endpoint"]?.stringValue,
      revocation: json["revocation_endpoint"]?.stringValue)
  }
}
