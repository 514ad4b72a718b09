import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// apx's GraphQL calls against the demo's GraphQL API (`POST /api/v2/graphql`, GraphQLSwift's
/// executor), which answers request errors with 400 in `application/graphql-response+json`.
@Suite("GraphQL against the demo")
struct GraphQLDemoTests {
  static func url(_ server: DemoServer) -> String { server.httpBaseURL + "/api/v2/graphql" }

  @Test func aQueryReadsTheCatalogue() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", Self.url(server), "--graphql", "query($id: ID!) { book(id: $id) { id title } }", "id=7",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == #"{"book":{"id":"7","title":"Book 7"}}"# + "\n")
      let page = try await APXProcess.run([
        "call", Self.url(server), "--graphql", "query($n: Int, $o: Int) { books(first: $n, offset: $o) { title } }",
        "n:=2", "o:=44", "--select", ".books[].title", "-o", "ndjson",
      ])
      #expect(page.status == 0, "\(page.stderr)")
      #expect(page.stdout == "\"Book 45\"\n", "\(page.stdout)")
    }
  }

  @Test func aMutationStartsAnImportThatTheRESTAPISees() async throws {
    try await withDemoServer(DemoServerOptions(rowDelay: 0)) { server in
      let r = try await APXProcess.run([
        "call", Self.url(server), "--graphql",
        "mutation Start($csv: String!) { startImport(csv: $csv) { id totalRows } }",
        "csv=title\nDune\nKindred\n", "--select", ".startImport",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let job = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
      #expect(job["totalRows"] as? Int == 2)
      let id = try #require(job["id"] as? String)
      let status = try await APXProcess.run([
        "call", server.httpBaseURL + "/api/v2/imports/" + id, "--select", ".job_id",
      ])
      #expect(status.stdout == "\"\(id)\"\n", "\(status.stderr)")
    }
  }

  @Test func aFieldErrorIsDataNullAndExit12() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(["call", Self.url(server), "--graphql", "{ books(first: 500) { title } }"])
      #expect(r.status == 12, "\(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(r.stderr.contains("first must be 0 to 100 (at books; line:column 1:3)"), "\(r.stderr)")
    }
  }

  /// The demo answers a validation error with 400 in application/graphql-response+json: a
  /// GraphQL answer, so exit 12 with the errors on stderr, not exit 4.
  @Test func aRequestErrorIn400IsAGraphQLAnswer() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(["call", Self.url(server), "--graphql", "{ nope }", "-v"])
      #expect(r.status == 12, "\(r.stderr)")
      #expect(r.stderr.contains("< HTTP/1.1 400"), "\(r.stderr)")
      #expect(r.stderr.contains(#"Cannot query field "nope" on type "Query"."#), "\(r.stderr)")
      let raw = try await APXProcess.run(["call", Self.url(server), "--graphql", "{ nope }", "--raw-response"])
      #expect(raw.status == 12 && raw.stdout.hasPrefix(#"{"errors":[{"message":"Cannot query field"#), "\(raw.stdout)")
    }
  }

  @Test func introspectionIsServed() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", Self.url(server), "--graphql", "{ __schema { mutationType { fields { name } } } }",
        "--select", ".__schema.mutationType.fields[].name",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == "\"startImport\"\n", "\(r.stdout)")
    }
  }

  @Test func theDemoRequiresBearerAuthLikeTheRestOfItsAPI() async throws {
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let r = try await APXProcess.run(["call", Self.url(server), "--graphql", "{ book(id: 1) { title } }"])
      #expect(r.status == 4, "\(r.stderr)")  // a 401 keeps its HTTP meaning, as for any ad-hoc call
      #expect(r.stderr.contains("401"), "\(r.stderr)")
    }
  }

  /// `Endpoints/books.json`'s GraphQL endpoints: an inline document, and one read from a file
  /// beside the registry (`"query": "@graphql/start_import.graphql"`) with its operation named.
  @Test func registryEndpointsRunTheirDocuments() async throws {
    try await withDemoServer(DemoServerOptions(rowDelay: 0)) { server in
      let base = ["--base-url", server.httpBaseURL, "--no-auth"]
      let book = try await APXProcess.run(["call", "books.graphql.book", "id=9"] + base)
      #expect(book.status == 0, "\(book.stderr)")
      #expect(book.stdout == #"{"book":{"id":"9","title":"Book 9"}}"# + "\n")
      let started = try await APXProcess.run(
        ["call", "books.graphql.start_import", "csv=title\nA\n", "rowDelayMs:=0", "--select", ".startImport.totalRows"]
          + base)
      #expect(started.status == 0, "\(started.stderr)")
      #expect(started.stdout == "1\n")
      let missing = try await APXProcess.run(["call", "books.graphql.book"] + base)
      #expect(missing.status == 2, "\(missing.stderr)")
    }
  }

  @Test func listShowsTheDemosRootFields() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(["list", Self.url(server), "--graphql", "-o", "ndjson"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(
        GraphQLStrawberryTests.listed(r.stdout) == [
          "query book(id: ID!): Book", "query books(first: Int = 20, offset: Int = 0): [Book!]!",
          "query importJob(id: ID!): ImportJob", "mutation startImport(csv: String!, rowDelayMs: Int): ImportJob!",
          "subscription importProgress(id: ID!): ImportJob!",
        ], "\(r.stdout)")
      // The shorthand `:PORT/path`, as call and describe take it.
      let port = server.httpBaseURL.split(separator: ":").last.map(String.init) ?? ""
      let short = try await APXProcess.run(["list", ":\(port)/api/v2/graphql", "--graphql", "-o", "ndjson"])
      #expect(short.status == 0, "\(short.stderr)")
      #expect(short.stdout == r.stdout, "\(short.stdout)")
      let misuse = try await APXProcess.run(["list", "books", "--schema", "x.graphql"])
      #expect(misuse.status == 2, "\(misuse.stderr)")
      // --graphql is a flag: the server is the positional URL, and an API name is not one.
      let noURL = try await APXProcess.run(["list", "--graphql"])
      #expect(noURL.status == 2, "\(noURL.stderr)")
      let notURL = try await APXProcess.run(["list", "books", "--graphql"])
      #expect(notURL.status == 2 && notURL.stderr.contains("not an http"), "\(notURL.stderr)")
    }
  }

  @Test func describeShowsAFieldOrAType() async throws {
    try await withDemoServer { server in
      let field = try await APXProcess.run(["describe", Self.url(server), "--graphql", "Mutation.startImport"])
      #expect(field.status == 0, "\(field.stderr)")
      #expect(
        field.stdout.hasPrefix(
          #"{"type":"Mutation","field":"startImport","arguments":[{"name":"csv","type":"String!"},"#
            + #"{"name":"rowDelayMs","type":"Int","description":"Milliseconds spent per row."}],"returns":"ImportJob!""#
        ),
        "\(field.stdout)")
      let type = try await APXProcess.run([
        "describe", Self.url(server), "--graphql", "ImportStatus", "--select", ".values",
      ])
      #expect(type.stdout == #"["QUEUED","PROCESSING","COMPLETE","FAILED"]"# + "\n", "\(type.stderr)")
      let typo = try await APXProcess.run(["describe", Self.url(server), "--graphql", "Query.bok"])
      #expect(typo.status == 2 && typo.stderr.contains(#""book""#), "\(typo.stderr)")
    }
  }

  /// `apx import graphql URL`: a registry that validates, whose endpoints call the demo, and
  /// that a second import leaves byte for byte as it was.
  @Test func importWritesARegistryThatCallsTheDemoAndReimportsIdentically() async throws {
    let out = TestScratch.root.appendingPathComponent("apx-graphql-import-\(UUID().uuidString)").path
    try await withDemoServer { server in
      let first = try await APXProcess.run(["import", "graphql", Self.url(server), "--api", "gql", "--out", out])
      #expect(first.status == 0, "\(first.stderr)")
      let file = out + "/gql.json"
      let written = try String(contentsOfFile: file, encoding: .utf8)
      #expect(written.contains(#""query": "query book($id: ID!) { book(id: $id) { id title } }""#), "\(written)")
      let again = try await APXProcess.run(["import", "graphql", Self.url(server), "--api", "gql", "--out", out])
      #expect(again.status == 0, "\(again.stderr)")
      #expect(try String(contentsOfFile: file, encoding: .utf8) == written)
      let valid = try await APXProcess.run(["validate", file])
      #expect(valid.status == 0, "\(valid.stdout) \(valid.stderr)")
      let call = try await APXProcess.run(["call", "gql.book", "id=3", "--registry", out])
      #expect(call.stdout == #"{"book":{"id":"3","title":"Book 3"}}"# + "\n", "\(call.stderr)")
    }
  }
}
