import APXCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Downloads a public document (an API description for `apx import`): GET,
/// no credentials, at most `maxBytes`, following up to five redirects (safe:
/// nothing secret is sent). Returns the bytes and the final URL, against
/// which relative server URLs in the document resolve.
public enum DocumentFetcher {
  public static func fetch(
    _ url: String, options: HTTPSessionOptions = .init(), timeout: Double = 30, maxBytes: Int
  ) async throws -> (bytes: [UInt8], finalURL: String) {
    try await HTTPSession.with(options) { session in
      var current = url
      for _ in 0...5 {
        let plan = HTTPRequestPlan(
          method: "GET", url: current,
          headers: [HeaderField("Accept", "application/json, application/yaml;q=0.9, text/yaml;q=0.9, */*;q=0.5")],
          body: .none)
        let deadline = NIODeadline.now() + .milliseconds(Int64(min(timeout, 86_400) * 1000))
        let status: Int
        let location: String?
        let body: ByteBuffer
        do {
          let response = try await session.send(plan, deadline: deadline)
          status = Int(response.status.code)
          location = response.headers.first(name: "Location")
          if (300..<400).contains(status), location != nil {
            body = ByteBuffer()
          } else {
            body = try await response.body.collect(upTo: maxBytes)
          }
        } catch let error as NIOTooManyBytesError {
          _ = error
          throw APXError(
            .usage, "\(current) is larger than \(maxBytes >> 20) MB", hint: "download it and import the file")
        } catch {
          throw NetworkErrorMapper.map(error, url: current, timeout: timeout)
        }
        if (300..<400).contains(status), let location {
          current = OAuth2TokenClient.resolve(location, against: SimpleURL.origin(current) ?? current)
          continue
        }
        guard (200..<300).contains(status) else {
          throw APXError(
            status >= 500 ? .httpServerError : .httpClientError, "GET \(current) answered \(status)",
            hint: "check the URL of the API description")
        }
        return (Array(body.readableBytesView), current)
      }
      throw APXError(.network, "\(url) redirects more than five times")
    }
  }
}

/// Pieces of absolute URLs.
enum SimpleURL {
  /// `https://host:port` of an absolute URL.
  static func origin(_ url: String) -> String? {
    guard let schemeEnd = url.firstRange(of: "://") else { return nil }
    let host = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    return host.isEmpty ? nil : String(url[..<schemeEnd.upperBound]) + host
  }
}
