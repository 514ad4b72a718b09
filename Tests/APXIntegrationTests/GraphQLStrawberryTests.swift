import APXTestSupport
import Foundation
import Testing

/// apx's GraphQL calls against a server it did not write: strawberry-graphql.
@Suite(
  "GraphQL against strawberry-graphql",
  .enabled(Comment(rawValue: StrawberryServer.missing)) { await StrawberryServer.found() })
struct GraphQLStrawberryTests {
  static let bookByID = "query($id: ID!) { book(id: $id) { title year author { name } } }"

  @Test func aQueryWithVariablesPrintsTheData() async throws {
    try await StrawberryServer.run { base in
      let r = try await APXProcess.run(["call", base + "/graphql", "--graphql", Self.bookByID, "id=2"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == #"{"book":{"title":"Kindred","year":1979,"author":{"name":"Octavia E. Butler"}}}"# + "\n")
      let selected = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", Self.bookByID, "id=1", "--select", ".book.author.name",
      ])
      #expect(selected.stdout == "\"Ursula K. Le Guin\"\n", "\(selected.stderr)")
    }
  }

  @Test func jsonItemsAreTypedVariablesAndAMutationRuns() async throws {
    try await StrawberryServer.run { base in
      let r = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", "query($n: Int) { books(first: $n) { id } }", "n:=2",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == #"{"books":[{"id":"1"},{"id":"2"}]}"# + "\n")
      let added = try await APXProcess.run([
        "call", base + "/graphql", "--graphql",
        "mutation Add($t: String!, $a: ID!) { addBook(title: $t, authorId: $a) { title author { name } } }",
        "t=The Word for World Is Forest", "a=a1",
      ])
      #expect(added.status == 0, "\(added.stderr)")
      #expect(added.stdout.contains(#""title":"The Word for World Is Forest","author":{"name":"Ursula K. Le Guin"}"#))
    }
  }

  /// `name=TEXT` items take the type the operation declares for the variable (servers refuse
  /// the string "2" for an Int); `name:=JSON` goes as given.
  @Test func textItemsAreTypedByTheDeclaredVariableTypes() async throws {
    let scaled = "query($v: [Int!]!, $f: Float!, $neg: Boolean!) { scaled(values: $v, factor: $f, negate: $neg) }"
    try await StrawberryServer.run { base in
      let r = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", "query($n: Int) { books(first: $n) { id } }", "n=2",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == #"{"books":[{"id":"1"},{"id":"2"}]}"# + "\n")
      let list = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", scaled, "v=2", "v=3", "f=1.5", "neg=true",
      ])
      #expect(list.status == 0, "\(list.stderr)")
      #expect(list.stdout == #"{"scaled":[-3.0,-4.5]}"# + "\n", "\(list.stdout)")
      // One item for a list variable: GraphQL's input coercion makes it a list of one.
      let one = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", scaled, "v=4", "f=0.5", "neg=false",
      ])
      #expect(one.stdout == #"{"scaled":[2.0]}"# + "\n", "\(one.stderr)")
      let subscription = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", "subscription($n: Int!) { countdown(from: $n) }", "n=1",
        "-o", "ndjson",
      ])
      #expect(subscription.stdout == "{\"countdown\":1}\n{\"countdown\":0}\n", "\(subscription.stderr)")
      let raw = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", "query($n: Int) { books(first: $n) { id } }", #"n:="2""#,
      ])
      #expect(raw.status == 12, "a JSON string stays a string: \(raw.stdout) \(raw.stderr)")
      for (item, expected) in [
        ("n=two", "a whole number"), ("n=2147483648", "a whole number"), ("n=1.5", "a whole number"),
      ] {
        let bad = try await APXProcess.run([
          "call", base + "/graphql", "--graphql", "query($n: Int) { books(first: $n) { id } }", item,
        ])
        #expect(bad.status == 2 && bad.stderr.contains("$n is Int") && bad.stderr.contains(expected), "\(bad.stderr)")
      }
      let notBool = try await APXProcess.run(["call", base + "/graphql", "--graphql", scaled, "v=1", "f=1", "neg=yes"])
      #expect(notBool.status == 2 && notBool.stderr.contains("true or false"), "\(notBool.stderr)")
      // A credential-named variable's value is not repeated in the message.
      let pin = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", "query($api_key: Int) { books(first: $api_key) { id } }",
        "api_key=s3cr3t-pin",
      ])
      #expect(
        pin.status == 2 && pin.stderr.contains("api_key=***") && !pin.stderr.contains("s3cr3t-pin"), "\(pin.stderr)")
    }
  }

  @Test func aDocumentFileWithSeveralOperationsRunsTheOneNamed() async throws {
    let folder = TestScratch.root.appendingPathComponent("apx-graphql-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("ops.graphql")
    try "query Titles { books { title } }\nquery Years { books(first: 1) { year } }\n".write(
      to: file, atomically: true, encoding: .utf8)
    try await StrawberryServer.run { base in
      let r = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", "@" + file.path, "--operation", "Years",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == #"{"books":[{"year":1974}]}"# + "\n")
      let none = try await APXProcess.run(["call", base + "/graphql", "--graphql", "@" + file.path])
      #expect(none.status == 2 && none.stderr.contains("Titles, Years"), "\(none.stderr)")
      let missing = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", "@" + file.path, "--operation", "Yeers",
      ])
      #expect(missing.status == 2 && missing.stderr.contains("\"Years\""), "\(missing.stderr)")
    }
  }

  /// strawberry serves graphql-transport-ws at the GraphQL path itself: each result's data is one line.
  @Test func aSubscriptionGoesOverGraphQLTransportWS() async throws {
    try await StrawberryServer.run { base in
      let r = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", "subscription($n: Int!) { countdown(from: $n) }", "n:=3", "-o",
        "ndjson",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == "{\"countdown\":3}\n{\"countdown\":2}\n{\"countdown\":1}\n{\"countdown\":0}\n")
      let two = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", "subscription { countdown(from: 9) }", "--max-messages", "2",
      ])
      #expect(two.status == 0, "\(two.stderr)")
      #expect(two.stdout.split(separator: "\n").count == 2, "\(two.stdout)")
    }
  }

  /// A result with data and errors: the data is a line, the error goes to stderr, and the call
  /// ends with exit 12 once the subscription completes, or 0 with --allow-partial.
  @Test func aSubscriptionsErrorsGoToStderrAndExit12UnlessAllowed() async throws {
    try await StrawberryServer.run { base in
      let document = "subscription { shakyBooks { title author { name } } }"
      let r = try await APXProcess.run(["call", base + "/graphql", "--graphql", document, "-o", "ndjson"])
      #expect(r.status == 12, "\(r.stderr)")
      #expect(
        r.stdout == #"{"shakyBooks":{"title":"The Dispossessed","author":{"name":"Ursula K. Le Guin"}}}"# + "\n"
          + #"{"shakyBooks":{"title":"Orphan","author":null}}"# + "\n", "\(r.stdout)")
      #expect(r.stderr.contains("GraphQL error: author record is missing"), "\(r.stderr)")
      let allowed = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", document, "-o", "ndjson", "--allow-partial",
      ])
      #expect(allowed.status == 0, "\(allowed.stderr)")
    }
  }

  /// The credentials go into connection_init's payload, where strawberry's on_ws_connect reads
  /// them; a server that rejects them closes with 4403: exit 8.
  @Test func connectionInitCarriesTheAuthorization() async throws {
    try await StrawberryServer.run { base in
      let r = try await APXProcess.run([
        "call", base + "/auth/graphql", "--graphql", "subscription { whoami }", "-H",
        "Authorization: Bearer s3cret-token",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == #"{"whoami":"Bearer s3cret-token"}"# + "\n")
      let refused = try await APXProcess.run([
        "call", base + "/auth/graphql", "--graphql", "subscription { whoami }", "-H", "Authorization: Bearer wrong",
      ])
      #expect(refused.status == 8, "\(refused.stderr)")
      #expect(refused.stderr.contains("4403") && !refused.stderr.contains("Bearer wrong"), "\(refused.stderr)")
    }
  }

  /// `--max-message-size` bounds a subscription's WebSocket messages; a query (one POST) and a
  /// subscription over SSE have none to bound, so there it is refused before anything is sent.
  @Test func maxMessageSizeBoundsASubscriptionOverWebSocket() async throws {
    try await StrawberryServer.run { base in
      let countdown = "subscription { countdown(from: 1) }"
      let small = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", countdown, "--max-message-size", "40",
      ])
      #expect(small.status == 9, "\(small.stderr)")
      #expect(small.stderr.contains("larger than") && small.stderr.contains("--max-message-size"), "\(small.stderr)")
      let enough = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", countdown, "--max-message-size", "1000", "-o", "ndjson",
      ])
      #expect(enough.status == 0, "\(enough.stderr)")
      #expect(enough.stdout == "{\"countdown\":1}\n{\"countdown\":0}\n")
      let query = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", "{ books { id } }", "--max-message-size", "1000",
      ])
      #expect(query.status == 2 && query.stderr.contains("applies to a subscription"), "\(query.stderr)")
      let sse = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", countdown, "--max-message-size", "1000", "--graphql-transport", "sse",
      ])
      #expect(sse.status == 2 && sse.stderr.contains("goes over SSE"), "\(sse.stderr)")
    }
  }

  /// `--raw-response` of an answer with errors is a failure's body: the bearer an error echoes is
  /// masked on stdout, as in the error on stderr.
  @Test func rawResponseMasksTheBearerAnErrorEchoes() async throws {
    try await StrawberryServer.run { base in
      let secret = "s3cr3t-echoed-bearer"
      let r = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", "{ refusal }", "--bearer", secret, "--raw-response",
      ])
      #expect(r.status == 12, "\(r.stderr)")
      #expect(r.stdout.contains("refused Bearer ***"), "\(r.stdout)")
      #expect(!r.stdout.contains(secret) && !r.stderr.contains(secret), "\(r.stdout) \(r.stderr)")
    }
  }

  /// A subscription's whole result with errors (`--raw-response`) masks the credential an error
  /// echoes, on stdout as in the notes on stderr.
  @Test func rawSubscriptionResultsMaskTheBearerAnErrorEchoes() async throws {
    try await StrawberryServer.run { base in
      let secret = "s3cr3t-subscription-bearer"
      let r = try await APXProcess.run([
        "call", base + "/graphql", "--graphql", "subscription { refusals { reason } }", "--bearer", secret,
        "--raw-response", "--allow-partial",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("refused Bearer ***"), "\(r.stdout)")
      #expect(!r.stdout.contains(secret) && !r.stderr.contains(secret), "\(r.stdout) \(r.stderr)")
    }
  }

  @Test func aPartialAnswerPrintsTheDataAndExits12UnlessAllowed() async throws {
    try await StrawberryServer.run { base in
      let document = "{ shaky { title author { name } } }"
      let r = try await APXProcess.run(["call", base + "/graphql", "--graphql", document])
      #expect(r.status == 12, "\(r.stderr)")
      #expect(r.stdout == #"{"shaky":{"title":"Orphan","author":null}}"# + "\n")
      #expect(r.stderr.contains("author record is missing (at shaky.author"), "\(r.stderr)")
      let allowed = try await APXProcess.run(["call", base + "/graphql", "--graphql", document, "--allow-partial"])
      #expect(allowed.status == 0, "\(allowed.stderr)")
      #expect(allowed.stdout == r.stdout)
      #expect(allowed.stderr.contains("author record is missing"), "\(allowed.stderr)")
    }
  }

  @Test func noDataExits12AndRawResponsePrintsTheWholeAnswer() async throws {
    try await StrawberryServer.run { base in
      let r = try await APXProcess.run(["call", base + "/graphql", "--graphql", "{ broken }"])
      #expect(r.status == 12, "\(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(r.stderr.contains("broken on purpose (at broken; line:column 1:3)"), "\(r.stderr)")
      let raw = try await APXProcess.run(["call", base + "/graphql", "--graphql", "{ broken }", "--raw-response"])
      #expect(raw.status == 12, "\(raw.stderr)")
      #expect(raw.stdout.hasPrefix(#"{"data":null,"errors":[{"message":"broken on purpose""#), "\(raw.stdout)")
      let invalid = try await APXProcess.run(["call", base + "/graphql", "--graphql", "{ nope }"])
      #expect(invalid.status == 12 && invalid.stderr.contains("Cannot query field 'nope'"), "\(invalid.stderr)")
    }
  }

  @Test func aBadDocumentOrVariableIsRefusedBeforeAnythingIsSent() async throws {
    try await StrawberryServer.run { base in
      let syntax = try await APXProcess.run(["call", base + "/graphql", "--graphql", "{ book(id: 1) { title ", "-v"])
      #expect(syntax.status == 2, "\(syntax.stderr)")
      #expect(syntax.stderr.contains("line 1, column 23") && syntax.stderr.contains("^"), "\(syntax.stderr)")
      #expect(!syntax.stderr.contains("> POST"), "\(syntax.stderr)")
      let undeclared = try await APXProcess.run(["call", base + "/graphql", "--graphql", Self.bookByID, "idd=1"])
      #expect(undeclared.status == 2 && undeclared.stderr.contains("$idd"), "\(undeclared.stderr)")
      let missing = try await APXProcess.run(["call", base + "/graphql", "--graphql", Self.bookByID])
      #expect(missing.status == 2 && missing.stderr.contains("needs $id (ID!)"), "\(missing.stderr)")
    }
  }

  @Test func graphQLFlagsAreRefusedOnOtherCalls() async throws {
    for flag in [["--operation", "A"], ["--allow-partial"], ["--raw-response"]] {
      let r = try await APXProcess.run(["call", "http://127.0.0.1:9/x", "--dry-run"] + flag)
      #expect(r.status == 2 && r.stderr.contains("applies to GraphQL calls"), "\(flag): \(r.stderr)")
    }
  }

  /// A registry API of kind graphql endpoints pointed at strawberry: the document in a file
  /// beside the registry, the operation picked by `operation_name`, `--operation` overriding it.
  @Test func aRegistryEndpointRunsItsDocumentFile() async throws {
    let folder = TestScratch.root.appendingPathComponent("apx-graphql-registry-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try "query Titles { books { title } }\nquery One($id: ID!) { book(id: $id) { title } }\n".write(
      to: folder.appendingPathComponent("library.graphql"), atomically: true, encoding: .utf8)
    try await StrawberryServer.run { base in
      let registry = """
        { "api": "library", "environments": { "local": { "base_url": "\(base)" } },
          "endpoints": {
            "one": { "kind": "graphql", "path": "/graphql", "query": "@library.graphql", "operation_name": "One",
                     "params": { "id": { "required": true } } } } }
        """
      try registry.write(to: folder.appendingPathComponent("library.json"), atomically: true, encoding: .utf8)
      let r = try await APXProcess.run(["call", "library.one", "id=3", "--registry", folder.path])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == #"{"book":{"title":"The Left Hand of Darkness"}}"# + "\n")
      let other = try await APXProcess.run([
        "call", "library.one", "id=3", "--operation", "Titles", "--registry", folder.path,
      ])
      #expect(other.status == 2 && other.stderr.contains("declares no variable $id"), "\(other.stderr)")
    }
  }

  static func listed(_ stdout: String) -> [String] {
    stdout.split(separator: "\n").compactMap { line in
      guard let row = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
      return "\(row["operation"] ?? "") \(row["field"] ?? "")(\(row["arguments"] ?? "")): \(row["type"] ?? "")"
    }
  }

  static let libraryFields = [
    "query book(id: ID!): Book", "query books(first: Int! = 10): [Book!]!", "query shaky(): Book",
    "query broken(): String!",
    "query refusal(): String", "query scaled(values: [Int!]!, factor: Float!, negate: Boolean! = false): [Float!]!",
    "mutation addBook(title: String!, authorId: ID!): Book!",
    "subscription countdown(from: Int!): Int!", "subscription shakyBooks(): Book!", "subscription whoami(): String",
    "subscription refusals(): Refusal!",
  ]

  @Test func listShowsTheRootFieldsByIntrospection() async throws {
    try await StrawberryServer.run { base in
      let r = try await APXProcess.run(["list", base + "/graphql", "--graphql", "-o", "ndjson"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(Self.listed(r.stdout) == Self.libraryFields, "\(r.stdout)")
    }
  }

  /// `/private/graphql` refuses introspection: exit 12 with a hint, and `--schema` with the SDL
  /// file or an introspection result saved from the open endpoint lists the same fields.
  @Test func listReadsASchemaFileWhereIntrospectionIsRefused() async throws {
    let folder = TestScratch.root.appendingPathComponent("apx-graphql-schema-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try await StrawberryServer.run { base in
      let refused = try await APXProcess.run(["list", base + "/private/graphql", "--graphql"])
      #expect(refused.status == 12 && refused.stderr.contains("--schema FILE"), "\(refused.stderr)")
      #expect(refused.stderr.contains("more"), "\(refused.stderr)")
      let sdl = APXProcess.packageRoot.appendingPathComponent("Tests/Fixtures/graphql/library.graphql").path
      let fromSDL = try await APXProcess.run([
        "list", base + "/private/graphql", "--graphql", "--schema", sdl, "-o", "ndjson",
      ])
      #expect(fromSDL.status == 0, "\(fromSDL.stderr)")
      // GraphQLSwift's schema builder orders each type's fields by name.
      #expect(Self.listed(fromSDL.stdout).sorted() == Self.libraryFields.sorted(), "\(fromSDL.stdout)")
      let saved = try await APXProcess.run([
        "call", base + "/graphql", "--graphql",
        "{ __schema { queryType { name } mutationType { name } "
          + "subscriptionType { name } types { kind name fields { name args { name defaultValue type { kind name "
          + "ofType { kind name ofType { kind name ofType { kind name } } } } } type { kind name ofType { kind name "
          + "ofType { kind name ofType { kind name } } } } } } } }", "--raw-response",
      ])
      #expect(saved.status == 0, "\(saved.stderr)")
      let file = folder.appendingPathComponent("introspection.json")
      try saved.stdout.write(to: file, atomically: true, encoding: .utf8)
      let fromJSON = try await APXProcess.run([
        "list", base + "/private/graphql", "--graphql", "--schema", file.path, "-o", "ndjson",
      ])
      #expect(fromJSON.status == 0, "\(fromJSON.stderr)")
      #expect(Self.listed(fromJSON.stdout) == Self.libraryFields, "\(fromJSON.stdout)")
    }
  }

  @Test func describeShowsAFieldByIntrospectionOrFromTheSchemaFile() async throws {
    try await StrawberryServer.run { base in
      let expected =
        #"{"type":"Query","field":"books","arguments":[{"name":"first","type":"Int!","default":"10"}],"#
        + #""returns":"[Book!]!"}"# + "\n"
      let r = try await APXProcess.run(["describe", base + "/graphql", "--graphql", "Query.books"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == expected, "\(r.stdout)")
      let sdl = APXProcess.packageRoot.appendingPathComponent("Tests/Fixtures/graphql/library.graphql").path
      let fromFile = try await APXProcess.run([
        "describe", base + "/private/graphql", "--graphql", "Query.books", "--schema", sdl,
      ])
      #expect(fromFile.stdout == expected, "\(fromFile.stderr)")
      let type = try await APXProcess.run(["describe", base + "/graphql", "--graphql", "Author", "--select", ".kind"])
      #expect(type.stdout == "\"OBJECT\"\n", "\(type.stderr)")
    }
  }

  /// The same registry from introspection and from the SDL file (the file has no base URL, so
  /// only the endpoints are compared); the generated selection cuts Book -> Author -> books.
  @Test func importFromTheServerOrItsSchemaFile() async throws {
    let out = TestScratch.root.appendingPathComponent("apx-graphql-import-\(UUID().uuidString)").path
    try await StrawberryServer.run { base in
      let r = try await APXProcess.run(["import", "graphql", base + "/graphql", "--api", "library", "--out", out])
      #expect(r.status == 0, "\(r.stderr)")
      let call = try await APXProcess.run(["call", "library.book", "id=2", "--registry", out])
      #expect(call.status == 0, "\(call.stderr)")
      #expect(
        call.stdout
          == #"{"book":{"id":"2","title":"Kindred","year":1979,"author":{"id":"a2","name":"Octavia E. Butler"}}}"#
          + "\n")
      let sdl = APXProcess.packageRoot.appendingPathComponent("Tests/Fixtures/graphql/library.graphql").path
      let fromFile = try await APXProcess.run([
        "import", "graphql", sdl, "--api", "libfile", "--out", out, "--depth", "1",
      ])
      #expect(fromFile.status == 0, "\(fromFile.stderr)")
      let text = try String(contentsOfFile: out + "/libfile.json", encoding: .utf8)
      #expect(text.contains(#""query": "query book($id: ID!) { book(id: $id) { id title year } }""#), "\(text)")
      #expect(text.contains(#""countdown": {"#) && text.contains(#""from": {"#), "\(text)")
    }
  }
}
