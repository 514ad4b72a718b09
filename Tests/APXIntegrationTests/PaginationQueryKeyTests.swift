import Foundation
import Testing

/// `--all` with an API key in the query (`auth: api_key`, `in: query`) against a server whose
/// next-page links carry the key already (as servers that copy the whole query do): apx sends
/// the key once per page, never twice, and never shows it (-v, errors).
@Suite("apx call --all: API key in the query")
struct PaginationQueryKeyTests {
  /// Has characters apx percent-encodes; the server writes `/` unencoded in its links, so the
  /// link's form of the key is neither the key as given nor apx's encoding of it.
  static let key = "k3y/Secret+Value="

  static func registry() throws -> String {
    let file = try temporaryFile(
      "keyed.json",
      """
      {
        "api": "keyed",
        "environments": { "test": { "base_url": "http://127.0.0.1:9" } },
        "auth": { "type": "api_key", "in": "query", "name": "api_key", "value": "${env:KEYED_KEY}" },
        "endpoints": {
          "items.list": { "kind": "rest", "path": "/items",
            "params": { "page": { "in": "query", "type": "integer" }, "fail": { "in": "query" } },
            "pagination": { "style": "link" } }
        }
      }
      """)
    return (file as NSString).deletingLastPathComponent
  }

  /// The query pairs of a request head's target, decoded.
  static func query(_ head: String) -> [(name: String, value: String)] {
    let target = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
    guard let q = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
    return q.split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
      return (parts[0], parts.count > 1 ? parts[1] : "")
    }
  }

  /// Strict like a real API: the key exactly once (a repeated parameter is a 400), and right.
  /// Page 1 links page 2 with every query parameter it got, the key included; `fail` makes
  /// page 2 answer 500 (so that its URL shows up in an error).
  static let server: HostileHTTPServer.Answer = { head in
    let pairs = query(head)
    let json = [("Content-Type", "application/json")]
    let keys = pairs.filter { $0.name == "api_key" }
    guard keys.count == 1 else {
      return HostileHTTPServer.response(
        "400 Bad Request", headers: json, body: Array(#"{"error": "api_key given \#(keys.count) times"}"#.utf8))
    }
    guard keys[0].value == key else {
      return HostileHTTPServer.response("401 Unauthorized", headers: json, body: Array(#"{"error": "bad key"}"#.utf8))
    }
    let page = pairs.first { $0.name == "page" }.flatMap { Int($0.value) } ?? 1
    if page == 1 {
      let carried = pairs.filter { $0.name != "page" }.map {
        $0.name + "=" + ($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["/"])) ?? "")
      }
      let link = "</items?" + (["page=2"] + carried).joined(separator: "&") + ">; rel=\"next\""
      return HostileHTTPServer.response(headers: json + [("Link", link)], body: Array("[1, 2]".utf8))
    }
    if pairs.contains(where: { $0.name == "fail" }) {
      return HostileHTTPServer.response(
        "500 Internal Server Error", headers: json, body: Array(#"{"error": "page 2 broke"}"#.utf8))
    }
    return HostileHTTPServer.response(headers: json, body: Array("[3, 4]".utf8))
  }

  static func call(_ server: HostileHTTPServer, _ extra: [String]) async throws -> APXResult {
    try await APXProcess.run(
      ["call", "keyed.items.list", "--all", "--base-url", server.baseURL, "--registry", try registry()] + extra,
      environment: ["KEYED_KEY": key])
  }

  /// The texts the key could be shown as (as given, encoded as apx or this server writes it).
  static let shownForms = [
    key, "k3y%2FSecret%2BValue%3D", "k3y/Secret%2BValue%3D", "k3y%2fSecret%2bValue%3d", "k3y/Secret%2bValue%3d",
  ]

  @Test func theKeyIsSentOnceOnEveryPageAndNeverShown() async throws {
    try await withHostileServer(Self.server) { server in
      let r = try await Self.call(server, ["-v"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.split(separator: "\n") == ["1", "2", "3", "4"], "\(r.stdout)")
      #expect(r.stderr.contains("page=2"), "-v shows the second page's request: \(r.stderr)")
      for form in Self.shownForms {
        #expect(!r.stderr.contains(form) && !r.stdout.contains(form), "\(form) shown: \(r.stderr)")
      }
    }
  }

  @Test func aFailingLinkedPageIsNamedWithoutTheKey() async throws {
    try await withHostileServer(Self.server) { server in
      let r = try await Self.call(server, ["fail=yes", "--retry", "1"])
      #expect(r.status != 0, "\(r.stdout)")
      #expect(r.stderr.contains("page 2"), "\(r.stderr)")
      #expect(r.stderr.contains("500"), "\(r.stderr)")
      for form in Self.shownForms {
        #expect(!r.stderr.contains(form) && !r.stdout.contains(form), "\(form) shown: \(r.stderr)")
      }
    }
  }
}
