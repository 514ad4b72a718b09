import APXCore
import Foundation
import PropertyBased
import Testing

/// Property and mutation tests of APXCore's parsers: for mutated inputs, no trap,
/// no hang (the time limit turns one into a failure) and, for bad input, an error
/// that says where.
@Suite(.timeLimit(.minutes(5)))
struct ParserFuzzTests {
  static let jsonCorpus = [
    #"{"a": [1, 2.5e3, -0, true, false, null], "b": {"c": "d\u00e9\n"}}"#, "[]", "{}", #""text""#,
    "12345678901234567890",
    #"[{"id": 9007199254740993, "rating": 1.10}]"#, "{\"a\":1}\n{\"a\":2}\n",
  ]

  @Test func jsonParserReportsWhere() async {
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(Self.jsonCorpus)) { bytes in
      Fuzz.note("json", bytes)
      do throws(JSONSyntaxError) {
        _ = try JSONParser.parse(bytes)
      } catch {
        #expect(error.location.line >= 1 && error.location.column >= 1)
        #expect(error.offset >= 0 && error.offset <= bytes.count, "offset \(error.offset) of \(bytes.count)")
      }
    }
  }

  @Test func streamFormatterAgreesWithTheParser() async {
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(Self.jsonCorpus), Gen.int(in: 1...64)) { bytes, chunk in
      Fuzz.note("formatter", bytes)
      var formatter = JSONStreamFormatter(style: .pretty)
      var out: [UInt8] = []
      var failed = false
      do throws(JSONSyntaxError) {
        var start = 0
        while start < bytes.count {
          try formatter.feed(bytes[start..<min(start + chunk, bytes.count)], into: &out)
          start += chunk
        }
        try formatter.finish(into: &out)
      } catch {
        failed = true
        #expect(error.offset >= 0 && error.offset <= bytes.count)
      }
      // One JSON text: the formatter accepts exactly what the parser accepts.
      if let single = try? JSONParser.parse(bytes) {
        #expect(!failed, "the parser accepted it")
        if !failed { #expect((try? JSONParser.parse(out)) == single) }
      }
      // The relay never mixes: raw output is the input, byte for byte.
      var relay = JSONBodyRelay(formatter: JSONStreamFormatter(), holdLimit: 1 << 20)
      var relayed: [UInt8] = []
      var step = bytes.withUnsafeBytes { relay.feed($0, into: &relayed) }
      if step == .formatted { step = relay.finish(into: &relayed) }
      if case .raw = step { #expect(relayed == bytes) }
    }
  }

  @Test func sseParserNeverTrapsAndKeepsIDs() async {
    let corpus = [
      "id: 1\nevent: progress\ndata: {\"p\": 0.5}\n\n", ": keep-alive\n\ndata: a\ndata: b\r\n\r\n", "retry: 1000\n\n",
    ]
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(corpus), Gen.int(in: 1...16)) { bytes, chunk in
      Fuzz.note("sse", bytes)
      var parser = SSEParser()
      parser.maxEventSize = 4096
      var events = 0
      var start = 0
      while start < bytes.count {
        parser.feed(bytes[start..<min(start + chunk, bytes.count)]) { _ in events += 1 }
        start += chunk
      }
      parser.finish()
      #expect(events <= bytes.count)
      #expect(!parser.lastEventID.contains("\0"))
    }
  }

  @Test func jqPathsParseOrSayWhere() async {
    let corpus = [".data.items[].id", ".items[1:3]", ".[\"odd key\"]?", ".a[-1].b", "."]
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(corpus)) { bytes in
      Fuzz.note("path", bytes)
      let text = String(decoding: bytes, as: UTF8.self)
      do throws(APXError) {
        let path = try JSONPath(parsing: text)
        #expect(path.steps.count <= JSONPath.maxSteps)
        _ = try? path.select(in: .object([JSONMember("data", .array([.int(1), .string("x")]))]))
        // What parses renders back to a path that parses to the same steps.
        #expect((try? JSONPath(parsing: JSONPath(steps: path.steps).text))?.steps == path.steps)
      } catch {
        #expect(error.status == .usage)
        #expect(error.location != nil, "\(error.message)")
      }
    }
  }

  @Test func requestItemsParseOrSayWhereAndNestWithoutTrapping() async {
    let corpus = [
      "user[name]=Ann", "a[b][c][]:=1", "[]:=[1,2]", "[0][id]=x", "tags[2]=c", "o[\\1]=x", "esc\\[x\\]=y",
      "k[\\]]:=null", "X-Trace:abc", "q==cat", "csv@rows.csv", "n:=3", "f=@-.a[0]", "m[x]:=@m.json",
    ]
    // Earlier items the fuzzed one is folded in with: objects, arrays and a top-level array.
    let earlier: [(name: String, nested: NestedPath?, value: BoundValue)] = [
      "user[name]=Ann", "a[b][c][]:=1", "t[0]=x",
    ]
    .compactMap { text in
      guard case .param(let a)? = try? RequestItem(parsing: text) else { return nil }
      switch a.value {
      case .text(let s): return (a.name, a.nested, .json(.string(s)))
      case .json(let v): return (a.name, a.nested, .json(v))
      default: return nil
      }
    }
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(corpus)) { bytes in
      Fuzz.note("item", bytes)
      let text = String(decoding: bytes, as: UTF8.self)
      let item: RequestItem
      do throws(APXError) {
        item = try RequestItem(parsing: text)
      } catch {
        #expect(error.status == .usage)
        #expect(error.hint != nil, "\(error.message)")
        if let cause = error.cause, let newline = cause.lastIndex(of: "\n") {
          // A caret line under the key: spaces and carets, no wider than the key shown above it.
          let caret = cause[cause.index(after: newline)...]
          #expect(caret.allSatisfy { $0 == " " || $0 == "^" } && caret.contains("^"), "\(cause)")
          #expect(caret.count <= 9 + cause[..<newline].count + 1, "\(cause)")
        }
        return
      }
      guard case .param(let argument) = item, let path = argument.nested else { return }
      #expect(path.steps.count == path.spans.count && path.steps.count >= 1)
      #expect(path.spans.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= path.source.count })
      for step in path.steps {
        if case .index(let n) = step { #expect(n >= 0 && n <= NestedPath.maxIndex) }
      }
      #expect(argument.name == path.root ?? "")
      // Keys free of syntax characters render back to a key that parses to the same steps.
      let plainKeys = path.steps.allSatisfy { step in
        guard case .key(let key) = step else { return true }
        return !key.isEmpty && !key.contains(where: { "[]\\:=@-".contains($0) }) && !key.allSatisfy(\.isNumber)
      }
      if plainKeys, case .param(let again)? = try? RequestItem(parsing: path.bracketKey(root: path.root ?? "") + "=x") {
        #expect(again.nested?.steps == path.steps, "\(path.bracketKey(root: path.root ?? ""))")
      }
      let value: JSONValue
      switch argument.value {
      case .text(let s): value = .string(s)
      case .json(let v): value = v
      default: value = .null
      }
      do throws(APXError) {
        let assembled = try NestedItems.assemble(earlier + [(argument.name, path, .json(value))]) { _ in true }
        #expect(assembled.body == nil || assembled.values.isEmpty)
      } catch {
        #expect(error.status == .usage)
        #expect(error.message.contains(path.source) || error.message.contains("given both"), "\(error.message)")
      }
    }
  }

  @Test func templatesParseOrSayWhere() async {
    let corpus = [
      "${input.csv}", "k-${run.id}-${loop.index}", "$${literal}", "${steps[\"a-b\"].body.x}", "${env:HOME:-/}",
    ]
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(corpus)) { bytes in
      Fuzz.note("template", bytes)
      let text = String(decoding: bytes, as: UTF8.self)
      do throws(APXError) {
        _ = try Template(parsing: text)
      } catch {
        #expect(error.status == .usage)
        #expect(error.location != nil, "\(error.message)")
      }
    }
  }

  @Test func registryLoaderReportsEveryProblemWithALocation() async {
    let corpus = [
      #"{"api": "a", "environments": {"p": {"base_url": "http://h:1"}}, "retry": {"max_attempts": 3, "initial_delay": 0.5}, "endpoints": {"e": {"kind": "rest", "method": "GET", "path": "/x/{id}", "timeout": 5, "params": {"id": {"in": "path", "required": true}, "n": {"in": "query", "type": "integer"}}}, "s": {"kind": "sse", "path": "/s", "reconnect": {"delays": [1, 2], "max_failures": 3}}}}"#
    ]
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(corpus)) { bytes in
      Fuzz.note("registry", bytes)
      do throws(APXErrors) {
        _ = try RegistryLoader.load(bytes, file: "fuzz.json")
      } catch {
        for e in error.errors {
          #expect(e.status == .invalidDefinition)
          #expect(e.file == "fuzz.json")
          #expect(e.location != nil, "\(e.message)")
        }
      }
    }
  }

  @Test func recipeLoaderReportsEveryProblemWithALocation() async {
    let corpus = [
      #"{"name": "r", "inputs": {"n": {"type": "number", "default": 2}}, "steps": [{"id": "a", "call": "books.imports.status", "with": {"job_id": "${input.n}"}, "expect": {"status": 200, ".body.s": {"matches": "^ok$"}}, "capture": {"s": ".body.s"}, "timeout": 3, "foreach": {"over": [1, 2], "concurrency": 2}}], "output": "${steps.a[0].s}"}"#
    ]
    let registry = try? RecipeValidationTests.registry()
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(corpus)) { bytes in
      Fuzz.note("recipe", bytes)
      do {
        var reader = try DocumentReader.parse(bytes, file: "fuzz.json")
        let recipe = try RecipeLoader.load(&reader)
        if let registry {
          for e in RecipeValidator.validate(recipe, registry: registry, document: reader.document) {
            #expect(e.location != nil, "\(e.message)")
          }
        }
      } catch let errors as APXErrors {
        for e in errors.errors { #expect(e.location != nil, "\(e.message)") }
      } catch let e as APXError {
        #expect(e.location != nil, "\(e.message)")
      } catch {
        Issue.record("unexpected error type: \(error)")
      }
    }
  }

  @Test func httpDatesParseToFiniteTimesOrNil() async {
    let corpus = ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "120"]
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(corpus)) { bytes in
      Fuzz.note("http-date", bytes)
      if let t = HTTPDate.parse(String(decoding: bytes, as: UTF8.self), now: 1_700_000_000) {
        #expect(t.isFinite)
        if let text = HTTPDate.format(t) { #expect(HTTPDate.parse(text, now: 0) == t.rounded(.down)) }
      }
    }
  }

  @Test func regexesCompileOrSayWhere() async {
    let corpus = ["^(a+)+$", "^imp_[0-9a-f]{2,8}$", "(?i)\\bcat|dog\\b", "[^\\s,]+", "a{2,}?b"]
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(corpus), Gen.int(in: 0...200)) { bytes, n in
      Fuzz.note("regex", bytes)
      let pattern = String(decoding: bytes, as: UTF8.self)
      do throws(LinearRegexError) {
        let regex = try LinearRegex(pattern)
        _ = regex.matches(in: String(repeating: "a", count: n) + "!")
      } catch {
        #expect(error.column >= 1 && error.column <= pattern.unicodeScalars.count + 1, "\(error)")
      }
    }
  }
}
