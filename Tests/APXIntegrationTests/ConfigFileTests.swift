import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `$XDG_CONFIG_HOME/apx/config.json` holds defaults; flags override
/// environment variables, which override the file, which overrides the built-in defaults.
@Suite("config file")
struct ConfigFileTests {
  /// A config home holding `config` as apx/config.json.
  static func configHome(_ config: String) throws -> URL {
    let home = TestScratch.root.appendingPathComponent("apx-config-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home.appendingPathComponent("apx"), withIntermediateDirectories: true)
    try config.write(to: home.appendingPathComponent("apx/config.json"), atomically: true, encoding: .utf8)
    return home
  }

  @Test func outputComesFromTheFileUnlessAFlagSaysOtherwise() async throws {
    let home = try Self.configHome(#"{"output": "table"}"#)
    defer { try? FileManager.default.removeItem(at: home) }
    let env = ["XDG_CONFIG_HOME": home.path]
    let table = try await APXProcess.run(
      ["call", "--demo", "books.capabilities.get", "--select", ".sse"], environment: env)
    #expect(table.status == 0, "\(table.stderr)")
    #expect(table.stdout.hasPrefix("retry_ms"), "\(table.stdout)")
    let json = try await APXProcess.run(
      ["call", "--demo", "books.capabilities.get", "--select", ".sse", "-o", "ndjson"], environment: env)
    #expect(json.stdout == "{\"retry_ms\":1000,\"keep_alive_seconds\":2}\n", "\(json.stdout)")
  }

  @Test func environmentPrecedenceAndAPXENVOnlyWhereTheAPIHasIt() async throws {
    try await withDemoServer { server in
      let registry = try TestRegistry.make(
        """
        {"api": "t", "environments": {"a": {"base_url": "\(server.httpBaseURL)/missing"},
                                      "b": {"base_url": "\(server.httpBaseURL)"}},
         "endpoints": {"get": {"kind": "rest", "path": "/api/v2/capabilities"}}}
        """)
      let home = try Self.configHome(#"{"environments": {"t": "b"}}"#)
      defer { try? FileManager.default.removeItem(at: home) }
      let call = ["call", "t.get", "--registry", registry, "--no-retry"]
      let withoutConfig = try await APXProcess.run(call)
      #expect(withoutConfig.status == 4, "the first environment, a, answers 404: \(withoutConfig.stderr)")
      #expect(
        withoutConfig.stderr.contains("`apx describe t.get`"), "the hint names the endpoint: \(withoutConfig.stderr)")
      let configured = try await APXProcess.run(call, environment: ["XDG_CONFIG_HOME": home.path])
      #expect(configured.status == 0, "\(configured.stderr)")
      // APX_ENV set for other APIs does not break this one; where it names one of t's, it wins.
      let otherAPIs = try await APXProcess.run(
        call, environment: ["XDG_CONFIG_HOME": home.path, "APX_ENV": "production"])
      #expect(otherAPIs.status == 0, "\(otherAPIs.stderr)")
      let variable = try await APXProcess.run(call, environment: ["XDG_CONFIG_HOME": home.path, "APX_ENV": "a"])
      #expect(variable.status == 4, "\(variable.stderr)")
      let flag = try await APXProcess.run(
        call + ["--env", "b"], environment: ["XDG_CONFIG_HOME": home.path, "APX_ENV": "a"])
      #expect(flag.status == 0, "\(flag.stderr)")
    }
  }

  @Test func registryFoldersComeFromTheFileAfterAPXREGISTRY() async throws {
    let registry = try TestRegistry.make(#"{"api": "fromconfig", "endpoints": {"x": {"kind": "rest", "path": "/x"}}}"#)
    let home = try Self.configHome(#"{"registry": ["\#(registry)"]}"#)
    defer { try? FileManager.default.removeItem(at: home) }
    let listed = try await APXProcess.run(["list"], environment: ["XDG_CONFIG_HOME": home.path, "APX_REGISTRY": ""])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdout.contains("fromconfig"), "\(listed.stdout)")
    let shown = try await APXProcess.run(["config"], environment: ["XDG_CONFIG_HOME": home.path, "APX_REGISTRY": ""])
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(shown.stdout.contains("\"from\":\"config\""), "\(shown.stdout)")
    let overridden = try await APXProcess.run(
      ["config", "--timeout", "5"], environment: ["XDG_CONFIG_HOME": home.path])
    #expect(
      overridden.stdout.contains("\"registry\":{\"value\":[\"\(APXProcess.endpoints)\"],\"from\":\"APX_REGISTRY\"}"),
      "\(overridden.stdout)")
    #expect(overridden.stdout.contains("\"timeout\":{\"value\":5,\"from\":\"--timeout\"}"), "\(overridden.stdout)")
  }

  /// One rule on every platform: `$XDG_CONFIG_HOME`, else `~/.config`; `$XDG_STATE_HOME/apx`,
  /// else `~/.local/state/apx`. `apx config` names the files and folders it reads.
  @Test func pathsFollowXDGThenHomeAndConfigNamesThem() async throws {
    let home = TestScratch.root.appendingPathComponent("apx-home-\(UUID().uuidString)").path
    let unset = ["APX_STATE_DIR": "", "XDG_STATE_HOME": "", "XDG_CONFIG_HOME": "", "APX_REGISTRY": "", "HOME": home]
    #expect(
      try await Self.paths(environment: unset)
        == ["\(home)/.config/apx/config.json", "\(home)/.config/apx/endpoints", "\(home)/.local/state/apx"])
    let xdg = ["XDG_CONFIG_HOME": "/xdg/config", "XDG_STATE_HOME": "/xdg/state"]
    #expect(
      try await Self.paths(environment: unset.merging(xdg) { $1 })
        == ["/xdg/config/apx/config.json", "/xdg/config/apx/endpoints", "/xdg/state/apx"])
  }

  /// The config file, the last registry folder and the state folder that `apx config` reports.
  static func paths(environment: [String: String]) async throws -> [String] {
    let r = try await APXProcess.run(["config"], environment: environment)
    #expect(r.status == 0, "\(r.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let settings = report["settings"] as? [String: Any]
    let registry = (settings?["registry"] as? [String: Any])?["value"] as? [String]
    return [report["config_file"] as? String, registry?.last, report["state_folder"] as? String].map { $0 ?? "-" }
  }

  @Test func configRefusesFlagsItDoesNotReport() async throws {
    for flags in [["--demo"], ["-H", "A: b"], ["--insecure"], ["--base-url", "http://127.0.0.1:1"]] {
      let r = try await APXProcess.run(["config"] + flags)
      #expect(r.status == 2, "\(flags): \(r.stderr)")
      #expect(r.stderr.contains("apx config does not take \(flags[0])"), "\(r.stderr)")
    }
    // No config file in this config home: the output setting is the default.
    let ok = try await APXProcess.run(
      ["config", "--select", ".settings.output.from", "-r"],
      environment: ["XDG_CONFIG_HOME": TestScratch.root.appendingPathComponent("apx-none").path])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(ok.stdout == "default\n", "\(ok.stdout)")
  }

  @Test func anInvalidFileIsExit3AndNamesTheProblem() async throws {
    for (text, expected) in [
      (#"{"outptu": "json"}"#, "did you mean \"output\""), (#"{"timeout": -1}"#, "\"timeout\" must be"),
      ("{not json", "not valid JSON"), (#"{"retry": 1.5}"#, "\"retry\" must be"),
    ] {
      let home = try Self.configHome(text)
      defer { try? FileManager.default.removeItem(at: home) }
      let r = try await APXProcess.run(
        ["call", "--demo", "books.capabilities.get"], environment: ["XDG_CONFIG_HOME": home.path])
      #expect(r.status == 3, "\(text): \(r.stderr)")
      #expect(r.stderr.contains(expected), "\(text): \(r.stderr)")
      #expect(r.stderr.contains("config.json"), "\(r.stderr)")
    }
  }
}
