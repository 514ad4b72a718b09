import APXCore
import Foundation
import Testing

@testable import APXRuntime

/// The pieces of a user's login that need no server: PKCE, the redirect's query, the browser.
@Suite("Login pieces: PKCE, redirect query, browser command")
struct LoginPiecesTests {
  @Test func theChallengeIsRFC7636sS256OfTheVerifier() {
    // RFC 7636 Appendix B.
    let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", state: "s")
    #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
  }

  @Test func eachLoginHasFreshURLSafeSecrets() {
    let a = PKCE()
    let b = PKCE()
    #expect(a.verifier != b.verifier && a.state != b.state)
    #expect(a.verifier.count == 43)  // RFC 7636 §4.1: 43 to 128 characters
    let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    #expect(a.verifier.allSatisfy(allowed.contains))
  }

  @Test func theRedirectsQueryIsFormDecodedAndTheFirstOfARepeatCounts() {
    let (path, query) = LoopbackRedirect.split("/callback?code=a%2Fb+c&state=x&state=y&flag")
    #expect(path == "/callback")
    #expect(query == ["code": "a/b c", "state": "x", "flag": ""])
    #expect(LoopbackRedirect.split("/callback").1.isEmpty)
    #expect(LoopbackRedirect.split("/cb?e=100%&f=%zz%41").1 == ["e": "100%", "f": "%zzA"])
  }

  @Test func browserTakesTheFirstFoundCommandAndPutsTheURLForPercentS() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("apx-browser-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let program = dir + "/open-it"
    try "#!/bin/sh\n".write(toFile: program, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
    let url = "http://127.0.0.1:1/authorize?a=1"
    #expect(
      BrowserLauncher.command(for: url, environment: ["BROWSER": "nope-browser:open-it --new %s", "PATH": dir])
        == [program, "--new", url])
    #expect(BrowserLauncher.command(for: url, environment: ["BROWSER": program, "PATH": dir]) == [program, url])
    #expect(BrowserLauncher.command(for: url, environment: ["BROWSER": "nope", "PATH": dir]) == nil)
  }
}

/// Which `${keychain:NAME}` secrets a run reads before its first call.
@Suite("Keychain secret names in a registry")
struct KeychainSecretNamesTests {
  @Test func theNamesComeFromAuthHeadersAndBaseURLsIncludingASubprotocolsToken() throws {
    let api = try RegistryLoader.load(
      Array(
        #"""
        {"api": "a", "environments": {"dev": {"base_url": "http://127.0.0.1:1"}},
         "headers": {"X-Key": "${keychain:header_key}"},
         "auth": {"type": "oauth2_client_credentials", "token_url": "/t", "client_id": "c", "client_secret": "${keychain:client}"},
         "endpoints": {
           "ws": {"kind": "websocket", "path": "/ws",
                  "auth": {"type": "bearer", "token": "${keychain:ws_token}", "in": "subprotocol", "prefix": "p."}},
           "plain": {"kind": "rest", "path": "/x", "headers": {"X-Env": "${env:HOME}"}}
         }}
        """#.utf8), file: "a.json")
    #expect(KeychainSecrets.names(in: api) == ["header_key", "client", "ws_token"])
    #expect(KeychainSecrets.isSecretKey(KeychainSecrets.environmentKey("client")))
    #expect(!KeychainSecrets.isValidName("a-b") && KeychainSecrets.isValidName("_a1"))
  }
}
