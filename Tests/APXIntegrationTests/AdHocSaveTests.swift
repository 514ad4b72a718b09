import APXCore
import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `apx call URL ... --save API.ENDPOINT`, then `apx call API.ENDPOINT`: the same request.
@Suite("apx call URL --save")
struct AdHocSaveTests {
  /// The request the echo route recorded, header order aside (saved headers go before Content-Type).
  static func same(_ a: String, _ b: String) throws -> Bool {
    let x = try AdHocCallTests.Echo(a)
    let y = try AdHocCallTests.Echo(b)
    let sorted = { (e: AdHocCallTests.Echo) in e.headers.map { "\($0.0.lowercased()): \($0.1)" }.sorted() }
    return x.method == y.method && x.path == y.path && x.query == y.query && x.body == y.body && sorted(x) == sorted(y)
  }

  /// An empty registry folder of its own.
  static func registry() throws -> String {
    let dir = TestScratch.root.appendingPathComponent("apx-save-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  /// Credentials in parameters (`api_key==`, `password=`, `?access_token=` in the URL) are not
  /// written: they were saved as plain defaults. The saved call asks for them and masks them;
  /// other values (`author`, `page_token`) keep their defaults.
  @Test func credentialParameterValuesAreNotSaved() async throws {
    let dir = try Self.registry()
    try await withDemoServer { server in
      let env = ["APX_REGISTRY": dir]
      let adhoc = try await APXProcess.run(
        [
          "call", server.httpBaseURL + "/_demo/echo/find?access_token=tok-71a2", "api_key==key-83b4",
          "author==Ann", "page_token==p2", "password=pw-95c6", "--save", "echo.find",
        ], environment: env)
      #expect(adhoc.status == 0, "\(adhoc.stderr)")
      for name in ["access_token", "api_key", "password"] {
        #expect(adhoc.stderr.contains("the value of \(name) is not saved"), "\(adhoc.stderr)")
      }
      let file = try String(contentsOfFile: dir + "/echo.json", encoding: .utf8)
      for secret in ["tok-71a2", "key-83b4", "pw-95c6"] { #expect(!file.contains(secret), "\(file)") }
      #expect(file.contains(#""default": "Ann""#) && file.contains(#""default": "p2""#), "\(file)")
      let missing = try await APXProcess.run(["call", "echo.find"], environment: env)
      #expect(missing.status == 2, "\(missing.stderr)")
      let given = try await APXProcess.run(
        ["call", "echo.find", "access_token=t", "api_key=k", "password=p"], environment: env)
      #expect(given.status == 0, "\(given.stderr)")
      #expect(try AdHocCallTests.Echo(given.stdout).query == "access_token=t&api_key=k&author=Ann&page_token=p2")
    }
  }

  /// `--until-event` stops the call, and the saved SSE endpoint keeps it, so the saved call stops
  /// at the same event; saved as REST, where the registry has no place for it, it is said to be left out.
  @Test func aSavedEventStreamKeepsItsStopEvent() async throws {
    let dir = try Self.registry()
    try await withDemoServer { server in
      let env = ["APX_REGISTRY": dir]
      let job = try await SSEWatchTests.createImport(server, rows: 3, [])
      let stream = server.httpBaseURL + "/api/v2/imports/\(job)/stream"
      let adhoc = try await APXProcess.run(
        ["call", "--sse", stream, "--until-event", "complete", "--save", "imports.watch"], environment: env)
      #expect(adhoc.status == 0, "\(adhoc.stderr)")
      let file = try String(contentsOfFile: dir + "/imports.json", encoding: .utf8)
      #expect(file.contains(#""until_event": ["complete"]"#), "\(file)")
      let saved = try await APXProcess.run(["call", "imports.watch"], environment: env)
      #expect(saved.status == 0, "\(saved.stderr)")
      #expect(try SSEWatchTests.lines(saved.stdout).last?["event"] as? String == "complete", "\(saved.stdout)")
      let rest = try await APXProcess.run(
        ["call", stream, "--until-event", "complete", "--save", "imports.raw"], environment: env)
      #expect(rest.status == 0, "\(rest.stderr)")
      #expect(rest.stderr.contains("--until-event is not saved"), "\(rest.stderr)")
    }
  }

  @Test func aSavedRESTCallGivesTheSameAnswerAndKeepsPathParameters() async throws {
    let dir = try Self.registry()
    try await withDemoServer { server in
      let env = ["APX_REGISTRY": dir]
      let adhoc = try await APXProcess.run(
        [
          "call", "PUT", server.httpBaseURL + "/_demo/echo/jobs/42?mode=fast", "q==cat", "q==dog", "X-Trace:abc",
          "name=Ann", "n:=3", "s:=\"3\"", "--save", "echo.jobs.update",
        ], environment: env)
      #expect(adhoc.status == 0, "\(adhoc.stderr)")
      #expect(adhoc.stderr.contains("saved as echo.jobs.update in \(dir)/echo.json"))
      let saved = try await APXProcess.run(["call", "echo.jobs.update"], environment: env)
      #expect(saved.status == 0, "\(saved.stderr)")
      #expect(try Self.same(saved.stdout, adhoc.stdout), "\(saved.stdout)")

      let file = try String(contentsOfFile: dir + "/echo.json", encoding: .utf8)
      #expect(file.contains("\"path\": \"/_demo/echo/jobs/{job_id}\""), "\(file)")
      let changed = try await APXProcess.run(["call", "echo.jobs.update", "job_id=7", "name=Bo"], environment: env)
      #expect(changed.status == 0, "\(changed.stderr)")
      let echo = try AdHocCallTests.Echo(changed.stdout)
      #expect(echo.path == "/_demo/echo/jobs/7")
      #expect(echo.query == "mode=fast&q=cat&q=dog")
      #expect(echo.body == #"{"name":"Bo","n":3,"s":"3"}"#)
      #expect(echo.header("X-Trace") == ["abc"])

      // A second endpoint is added to the file; nothing already there moves.
      let data = try await APXProcess.run(
        [
          "call", server.httpBaseURL + "/_demo/echo/notes", "-d", #"{"b":[1,2],"a":"x"}"#, "--save",
          "echo.notes.create",
        ],
        environment: env)
      #expect(data.status == 0, "\(data.stderr)")
      let after = try String(contentsOfFile: dir + "/echo.json", encoding: .utf8)
      let kept = String(file[..<file.range(of: "\n  }\n}")!.lowerBound])
      #expect(after.hasPrefix(kept), "\(after)")
      let again = try await APXProcess.run(["call", "echo.notes.create"], environment: env)
      #expect(again.status == 0, "\(again.stderr)")
      #expect(try Self.same(again.stdout, data.stdout), "\(again.stdout)")
    }
  }

  @Test func nothingIsWrittenWhenTheNameIsTakenOrACredentialWouldBe() async throws {
    let dir = try Self.registry()
    try await withDemoServer { server in
      let env = ["APX_REGISTRY": dir]
      let first = try await APXProcess.run(
        ["call", server.httpBaseURL + "/_demo/echo", "Authorization:Bearer s3cr3t-token", "--save", "e.get"],
        environment: env)
      #expect(first.status == 0, "\(first.stderr)")
      #expect(first.stderr.contains("the header Authorization is not saved"))
      let file = try String(contentsOfFile: dir + "/e.json", encoding: .utf8)
      #expect(!file.contains("s3cr3t"))

      let taken = try await APXProcess.run(
        ["call", server.httpBaseURL + "/_demo/echo", "--save", "e.get"], environment: env)
      #expect(taken.status == 3, "\(taken.stderr)")
      #expect(taken.stdout.isEmpty, "the call is not made when it cannot be saved")
      #expect(try String(contentsOfFile: dir + "/e.json", encoding: .utf8) == file)

      let elsewhere = try await APXProcess.run(
        ["call", "http://127.0.0.1:1/x", "--save", "e.other"], environment: env)
      #expect(elsewhere.status == 2 && elsewhere.stderr.contains("not under a base URL"), "\(elsewhere.stderr)")
      let registryCall = try await APXProcess.run(["call", "e.get", "--save", "e.copy"], environment: env)
      #expect(registryCall.status == 2, "\(registryCall.stderr)")
    }
  }

  /// An API name too long for its file, API.json, is refused before the call, saying so: the write
  /// failed after the call with "File name too long" and a hint about the folder's permissions.
  @Test func anAPINameTooLongForItsFileIsExit2BeforeTheCall() async throws {
    let dir = try Self.registry()
    try await withDemoServer { server in
      let env = ["APX_REGISTRY": dir]
      let url = server.httpBaseURL + "/_demo/echo"
      for length in [10_000, 251] {
        let r = try await APXProcess.run(
          ["call", url, "--save", String(repeating: "a", count: length) + ".get"], environment: env)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("the API name is \(length) characters long; it may have at most 250"), "\(r.stderr)")
        #expect(r.stderr.contains("a file name holds at most 255 bytes"), "\(r.stderr)")
        #expect(!r.stderr.contains("permissions"), "\(r.stderr)")
        #expect(r.stdout.isEmpty, "the call is not made when it cannot be saved")
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
      // The limit is the file system's: 250 characters and ".json" fit.
      let longest = String(repeating: "a", count: 250)
      let saved = try await APXProcess.run(["call", url, "--save", longest + ".get"], environment: env)
      #expect(saved.status == 0, "\(saved.stderr)")
      #expect(FileManager.default.fileExists(atPath: dir + "/" + longest + ".json"))
    }
  }

  @Test func aSavedGRPCCallGivesTheSameAnswer() async throws {
    let dir = try Self.registry()
    try await withDemoServer { server in
      let env = ["APX_REGISTRY": dir]
      let url = "grpc://127.0.0.1:\(server.grpcPort)/classnotes.v1.ClassNotesAPI/GetLesson"
      let adhoc = try await APXProcess.run(
        ["call", url, "id=les_0001", "--protoset", AdHocGRPCTests.protoset, "--save", "notes.lessons.get"],
        environment: env)
      #expect(adhoc.status == 0, "\(adhoc.stderr)")
      let saved = try await APXProcess.run(["call", "notes.lessons.get"], environment: env)
      #expect(saved.status == 0, "\(saved.stderr)")
      #expect(saved.stdout == adhoc.stdout)
      let validate = try await APXProcess.run(["validate", dir + "/notes.json"], environment: env)
      #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
    }
  }
}
