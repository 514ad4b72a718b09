import APXCore
import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// A registry's `tls` block: CA, client certificate and an encrypted client key, with paths
/// relative to the registry file and the passphrase from the variable the block names, for REST,
/// SSE and gRPC; an environment's block overriding the file's; and the refusals.
///
/// The key is encrypted with the openssl command line tool (Debian and macOS ship it); without
/// it the suite is skipped, saying so.
@Suite(
  "registry tls block", .serialized, .timeLimit(.minutes(5)),
  .enabled(if: OpenSSLTool.path != nil, "needs the openssl command to encrypt a key"))
struct RegistryTLSBlockTests {
  static var openssl: String? { OpenSSLTool.path }
  static let passphrase = "correct horse battery staple"

  /// A folder holding `certs/ca.pem`, `certs/client.pem` and `certs/client-key.enc.pem` (the
  /// client key encrypted with `passphrase`), and a registry file `api.json` written by `registry`.
  static func folder(_ ca: TestCertificateAuthority, _ client: TestCertificateAuthority.Issued) async throws -> String {
    let dir = TestScratch.root.appendingPathComponent("apx-tls-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir + "/certs", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: ca.certificatePath, toPath: dir + "/certs/ca.pem")
    try FileManager.default.copyItem(atPath: client.certificatePath, toPath: dir + "/certs/client.pem")
    let encrypt = try await ChildProcess.run(
      openssl ?? "/usr/bin/openssl",
      [
        "pkey", "-in", client.keyPath, "-aes256", "-passout", "env:APX_TEST_KEY_PASS", "-out",
        dir + "/certs/client-key.enc.pem",
      ], environment: ["APX_TEST_KEY_PASS": passphrase], timeout: 30)
    #expect(encrypt.status == 0, "\(String(decoding: encrypt.stderr, as: UTF8.self))")
    let encrypted = try String(contentsOfFile: dir + "/certs/client-key.enc.pem", encoding: .utf8)
    #expect(encrypted.contains("ENCRYPTED"), "\(encrypted.prefix(60))")
    return dir
  }

  /// Runs `body` with `folder`'s files and the base URL of an HTTPS server that requires a
  /// client certificate from the same CA.
  static func withMutualTLSFolder(_ body: (String, String) async throws -> Void) async throws {
    try await ClientCertificateTests.withMutualTLSServer { ca, client, registry in
      let base =
        try String(contentsOfFile: registry + "/secure.json", encoding: .utf8)
        .firstMatch(of: /"base_url": "([^"]+)"/)?.1 ?? ""
      try await body(try await folder(ca, client), String(base))
    }
  }

  static let block = """
    {"ca": "certs/ca.pem", "client_cert": "certs/client.pem", "client_key": "certs/client-key.enc.pem",
     "client_key_passphrase_env": "SECURE_KEY_PASS"}
    """

  @Test func restAndSSEUseTheBlocksFilesAndTheKeysPassphrase() async throws {
    try await Self.withMutualTLSFolder { dir, base in
      try """
      {"api": "secure", "environments": {"demo": {"base_url": "\(base)"}}, "tls": \(Self.block),
       "endpoints": {"get": {"kind": "rest", "path": "/thing"},
                     "events": {"kind": "sse", "path": "/events", "until_event": ["done"]}}}
      """.write(toFile: dir + "/secure.json", atomically: true, encoding: .utf8)
      let env = ["SECURE_KEY_PASS": Self.passphrase]
      let rest = try await APXProcess.run(
        ["call", "secure.get", "--registry", dir, "--no-retry", "-v"], environment: env)
      #expect(rest.status == 0, "\(rest.stderr)")
      #expect(rest.stdout.contains("\"tls\""), "\(rest.stdout)")
      #expect(!rest.stderr.contains(Self.passphrase) && !rest.stdout.contains(Self.passphrase))
      let sse = try await APXProcess.run(["call", "secure.events", "--registry", dir, "--no-retry"], environment: env)
      #expect(sse.status == 0, "\(sse.stderr)")
      #expect(sse.stdout.contains("\"n\""), "\(sse.stdout)")

      let unset = try await APXProcess.run(["call", "secure.get", "--registry", dir, "--no-retry"])
      #expect(unset.status == 2, "\(unset.stderr)")
      #expect(unset.stderr.contains("$SECURE_KEY_PASS, which is not set"), "\(unset.stderr)")
      let wrong = try await APXProcess.run(
        ["call", "secure.get", "--registry", dir, "--no-retry"], environment: ["SECURE_KEY_PASS": "wrong"])
      #expect(wrong.status == 2, "\(wrong.stderr)")
      #expect(wrong.stderr.contains("with the passphrase in $SECURE_KEY_PASS"), "\(wrong.stderr)")
      #expect(!wrong.stderr.contains("wrong"), "the passphrase is never shown: \(wrong.stderr)")
    }
  }

  @Test func anEnvironmentsBlockOverridesTheFilesKeyByKey() async throws {
    try await Self.withMutualTLSFolder { dir, base in
      // The file's block trusts the wrong CA; the environment's names the right one.
      let other = try TestCertificateAuthority()
      defer { other.remove() }
      try FileManager.default.copyItem(atPath: other.certificatePath, toPath: dir + "/certs/other-ca.pem")
      try """
      {"api": "secure",
       "environments": {"prod": {"base_url": "\(base)", "tls": {"ca": "certs/ca.pem"}},
                        "stale": {"base_url": "\(base)"}},
       "default_environment": "prod",
       "tls": {"ca": "certs/other-ca.pem", "client_cert": "certs/client.pem", "client_key": "certs/client-key.enc.pem",
               "client_key_passphrase_env": "SECURE_KEY_PASS"},
       "endpoints": {"get": {"kind": "rest", "path": "/thing"}}}
      """.write(toFile: dir + "/secure.json", atomically: true, encoding: .utf8)
      let env = ["SECURE_KEY_PASS": Self.passphrase]
      let prod = try await APXProcess.run(["call", "secure.get", "--registry", dir, "--no-retry"], environment: env)
      #expect(prod.status == 0, "\(prod.stderr)")
      let stale = try await APXProcess.run(
        ["call", "secure.get", "--registry", dir, "--env", "stale", "--no-retry"], environment: env)
      #expect(stale.status == 6, "the file's CA does not sign the server's certificate: \(stale.stderr)")
      // A path may start with ~/ (HOME).
      try FileManager.default.createDirectory(atPath: dir + "/home/certs", withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: dir + "/certs/ca.pem", toPath: dir + "/home/certs/home-ca.pem")
      try """
      {"api": "homed", "environments": {"prod": {"base_url": "\(base)"}},
       "tls": {"ca": "~/certs/home-ca.pem", "client_cert": "certs/client.pem", "client_key": "certs/client-key.enc.pem",
               "client_key_passphrase_env": "SECURE_KEY_PASS"},
       "endpoints": {"get": {"kind": "rest", "path": "/thing"}}}
      """.write(toFile: dir + "/homed.json", atomically: true, encoding: .utf8)
      let homed = try await APXProcess.run(
        ["call", "homed.get", "--registry", dir, "--no-retry"], environment: env.merging(["HOME": dir + "/home"]) { $1 }
      )
      #expect(homed.status == 0, "\(homed.stderr)")
      // --cacert overrides both.
      let flag = try await APXProcess.run(
        ["call", "secure.get", "--registry", dir, "--env", "stale", "--cacert", dir + "/certs/ca.pem", "--no-retry"],
        environment: env)
      #expect(flag.status == 0, "\(flag.stderr)")
    }
  }

  @Test func gRPCUsesTheBlockToo() async throws {
    try await GRPCTLSTests.withTLSServer(GRPCTLSTests.mutualTLS) { pki, server in
      let dir = try await Self.folder(pki.ca, pki.client)
      try FileManager.default.createDirectory(atPath: dir + "/protos", withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: APXProcess.packageRoot.appendingPathComponent("Protos/classnotes.protoset").path,
        toPath: dir + "/protos/classnotes.protoset")
      try """
      {"api": "cn", "environments": {"tls": {"base_url": "grpcs://127.0.0.1:\(server.port)"}}, "tls": \(Self.block),
       "endpoints": {"get": {"kind": "grpc", "service": "classnotes.v1.ClassNotesAPI", "method": "GetLesson",
         "schema": {"protoset": "protos/classnotes.protoset"}, "params": {"id": {"in": "message", "required": true}}}}}
      """.write(toFile: dir + "/cn.json", atomically: true, encoding: .utf8)
      let r = try await APXProcess.run(
        ["call", "cn.get", "id=les_0001", "--registry", dir, "--no-retry"],
        environment: ["SECURE_KEY_PASS": Self.passphrase])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try JSONParser.parse(r.stdout)["id"] == .string("les_0001"))
    }
  }

  /// One run has one TLS setup: a recipe whose two APIs name different files is refused before
  /// anything is sent.
  @Test func aRecipeWhoseAPIsNameDifferentFilesIsAUsageError() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-tls-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for (api, ca) in [("one", "one-ca.pem"), ("two", "two-ca.pem")] {
      try """
      {"api": "\(api)", "environments": {"x": {"base_url": "https://127.0.0.1:9"}}, "tls": {"ca": "\(ca)"},
       "endpoints": {"get": {"kind": "rest", "path": "/"}}}
      """.write(toFile: dir + "/\(api).json", atomically: true, encoding: .utf8)
    }
    let recipe = try temporaryFile(
      "two.json",
      """
      {"name": "two", "steps": [{"id": "a", "call": "one.get"}, {"id": "b", "call": "two.get"}]}
      """)
    let r = try await APXProcess.run(["run", recipe, "--registry", dir])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("name different TLS files"), "\(r.stderr)")
  }

  /// A passphrase variable with no key to decrypt is refused, not ignored.
  @Test func aPassphraseWithoutAKeyIsAUsageError() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-tls-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try """
    {"api": "lone", "environments": {"x": {"base_url": "https://127.0.0.1:9"}},
     "tls": {"client_key_passphrase_env": "LONE_PASS"}, "endpoints": {"get": {"kind": "rest", "path": "/"}}}
    """.write(toFile: dir + "/lone.json", atomically: true, encoding: .utf8)
    let r = try await APXProcess.run(["call", "lone.get", "--registry", dir], environment: ["LONE_PASS": "p"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("names a key passphrase ($LONE_PASS) but no client key"), "\(r.stderr)")
  }

  @Test func theBlockIsCheckedWhenTheRegistryLoads() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-tls-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try """
    {"api": "bad", "environments": {"x": {"base_url": "https://127.0.0.1:9"}},
     "tls": {"ca": "", "client_key_passphrase_env": "my secret", "passphrase": "p"},
     "endpoints": {"get": {"kind": "rest", "path": "/"}}}
    """.write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
    let r = try await APXProcess.run(["validate", "--registry", dir])
    #expect(r.status != 0, "\(r.stdout)\(r.stderr)")
    let all = r.stdout + r.stderr
    #expect(all.contains("unknown key \"passphrase\""), "\(all)")
    #expect(all.contains("ca is empty"), "\(all)")
    #expect(all.contains("is not an environment variable name"), "\(all)")
  }
}

/// Where the openssl command line tool is, if anywhere.
enum OpenSSLTool {
  static let path = ["/usr/bin/openssl", "/bin/openssl", "/opt/homebrew/bin/openssl", "/usr/local/bin/openssl"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }
}
