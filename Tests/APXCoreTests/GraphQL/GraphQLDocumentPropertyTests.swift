import APXCore
import APXGraphQL
import PropertyBased
import Testing

/// What apx adds around GraphQLSwift's parser: a nesting guard, operation picking and the
/// check of variables given as items, tested on mutated and generated documents.
@Suite("GraphQL documents: parsing, operation picking, variables")
struct GraphQLDocumentPropertyTests {
  static let corpus = [
    "query($id: ID!) { book(id: $id) { title author { name } } }",
    "query A { books { title } } mutation B($t: String!, $n: Int = 2) { addBook(title: $t, n: $n) { id } }",
    "subscription S { progress(jobId: \"1\") { percent } }",
    "fragment F on Book { title } query Q { books { ...F } }",
    "{ a(b: [1, 2.5, \"s\\\"q\", true, null, ENUM, {k: $v}]) @include(if: true) }",
    "# comment {{{\nquery { a(s: \"\"\"block {{ [[ \\\"\"\" \"\"\") }",
  ]

  @Test func mutatedDocumentsNeverTrapAndFailAsUsageErrors() async {
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(Self.corpus)) { bytes in
      Fuzz.note("graphql", bytes)
      do throws(APXError) {
        let document = try GraphQLDocument(parsing: String(decoding: bytes, as: UTF8.self), origin: "fuzz")
        #expect(!document.operations.isEmpty)
        if document.operations.count == 1 { _ = try document.operation(named: nil) }
      } catch {
        #expect(error.status == .usage, "\(error)")
      }
    }
  }

  @Test func deepNestingIsRefusedBeforeTheParserSeesIt() throws {
    for open in ["{a", "[", "("] {
      let text = "{ a(b: " + String(repeating: open, count: 5000) + ") }"
      #expect(throws: APXError.self) { try GraphQLDocument(parsing: text, origin: "deep") }
    }
    // Brackets inside strings, block strings and comments do not count.
    let quoted =
      "# " + String(repeating: "{", count: 500) + "\n{ a(s: \"" + String(repeating: "[", count: 500)
      + "\", t: \"\"\"" + String(repeating: "(", count: 500) + "\"\"\") }"
    #expect(try GraphQLDocument(parsing: quoted, origin: "quoted").operations.count == 1)
  }

  @Test func aSyntaxErrorSaysWhereWithACaret() {
    do {
      _ = try GraphQLDocument(parsing: "query {\n  book(id: 1 {\n}", origin: "--graphql")
      Issue.record("no error")
    } catch {
      #expect(error.status == .usage)
      #expect(error.message.contains("line 2, column 14"), "\(error.message)")
      #expect(error.cause?.contains("  book(id: 1 {\n                 ^") == true, "\(error.cause ?? "")")
    }
  }

  /// Documents of 1 to 5 operations of generated kinds: each is found by its name, none without
  /// a name when there are several, and an unknown name is a usage error.
  @Test func operationPickingFindsEachOperation() async {
    await propertyCheck(count: Fuzz.count, input: Gen.int(in: 0...2).array(of: 1...5)) { kinds in
      let names = kinds.indices.map { "Op\($0)" }
      let words = ["query", "mutation", "subscription"]
      let text = zip(kinds, names).map { "\(words[$0]) \($1) { f\($0) }" }.joined(separator: "\n")
      do throws(APXError) {
        let document = try GraphQLDocument(parsing: text, origin: "gen")
        for (kind, name) in zip(kinds, names) {
          let picked = try document.operation(named: name)
          #expect(picked.name == name && picked.kind.rawValue == words[kind])
        }
        #expect(throws: APXError.self) { try document.operation(named: "Missing") }
        if kinds.count > 1 {
          #expect(throws: APXError.self) { try document.operation(named: nil) }
        } else {
          #expect(try document.operation(named: nil).name == "Op0")
        }
      } catch {
        Issue.record("\(text): \(error)")
      }
    }
  }

  /// Declared variables of generated requiredness, given as a generated subset plus maybe an
  /// undeclared name: the check passes exactly when every given name is declared and every
  /// required one is given.
  @Test func variablesAreCheckedAgainstTheDeclarations() async {
    let declared = Gen.int(in: 0...2).array(of: 0...4)  // 0 optional, 1 required, 2 required with a default
    await propertyCheck(count: Fuzz.count, input: declared, Gen.bool.array(of: 4...4), Gen.bool) {
      kinds, picks, extra in
      let types = ["Int", "ID!", "String! = \"x\""]
      let list = kinds.enumerated().map { "$v\($0.offset): \(types[$0.element])" }.joined(separator: ", ")
      let text = "query Q" + (list.isEmpty ? "" : "(\(list))") + " { a }"
      var given = kinds.indices.filter { picks[$0] }.map { "v\($0)" }
      if extra { given.append("undeclared") }
      let shouldPass = !extra && kinds.indices.allSatisfy { kinds[$0] != 1 || picks[$0] }
      do throws(APXError) {
        let operation = try GraphQLDocument(parsing: text, origin: "gen").operation(named: nil)
        #expect(operation.variables.map(\.isRequired) == kinds.map { $0 == 1 })
        do throws(APXError) {
          try operation.check(variables: given, origin: "gen")
          #expect(shouldPass, "\(text) with \(given)")
        } catch {
          #expect(!shouldPass && error.status == .usage, "\(text) with \(given): \(error)")
        }
      } catch {
        Issue.record("\(text): \(error)")
      }
    }
  }
}
