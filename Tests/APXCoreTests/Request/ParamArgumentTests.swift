import APXCore
import Testing

/// `name=value`, `name:=json`, `name=@file`, `name:=@file`, `name=@-.path`, `name=\@text`.
@Suite struct ParamArgumentTests {
  @Test(arguments: [
    ("q=hello", "q", ParamArgument.Value.text("hello")),
    ("q=", "q", .text("")),
    ("q=a=b", "q", .text("a=b")),
    ("q=hello world", "q", .text("hello world")),
    ("filter=status:done", "filter", .text("status:done")),
    ("X-Trace=1", "X-Trace", .text("1")),
    ("name=\\@home", "name", .text("@home")),
    ("name=\\\\@x", "name", .text("\\\\@x")),
    ("csv=@books.csv", "csv", .file(path: "books.csv")),
    ("csv=@/tmp/a b.csv", "csv", .file(path: "/tmp/a b.csv")),
    ("csv=@-", "csv", .file(path: "-")),
    ("job_id=@-.job_id", "job_id", .stdinPath(".job_id")),
    ("job_id=@-.data.items[0].id", "job_id", .stdinPath(".data.items[0].id")),
    ("doc=@-.", "doc", .stdinPath(".")),
    ("meta:=@meta.json", "meta", .jsonFile(path: "meta.json")),
    ("count:=3", "count", .json(.number("3"))),
    ("big:=9007199254740993", "big", .json(.number("9007199254740993"))),
    ("ok:=true", "ok", .json(.bool(true))),
    ("none:=null", "none", .json(.null)),
    ("s:=\"@x\"", "s", .json(.string("@x"))),
    ("tags:=[\"a\",\"b\"]", "tags", .json(.array([.string("a"), .string("b")]))),
    ("obj:= {\"k\": 1} ", "obj", .json(.object([JSONMember("k", .number("1"))]))),
    ("a:b=c", "a:b", .text("c")),
    ("é=ü", "é", .text("ü")),
  ])
  func parses(_ text: String, _ name: String, _ value: ParamArgument.Value) throws {
    let argument = try ParamArgument(parsing: text)
    #expect(argument.name == name)
    #expect(argument.value == value)
    #expect(argument == ParamArgument(name: name, value: value))
  }

  /// `a=@` named the empty file: "error:  does not exist".
  @Test(arguments: ["a=@", "a:=@"])
  func anAtWithoutAFileNameSaysSo(_ text: String) throws {
    let error = try #require(throws: APXError.self) { try ParamArgument(parsing: text) }
    #expect(error.status == .usage)
    #expect(error.message == "\(text) names no file after '@'", "\(error.message)")
  }

  @Test func withoutEqualsIsNotAParameter() throws {
    let error = try #require(throws: APXError.self) { try ParamArgument(parsing: "verbose") }
    #expect(error.message == "\"verbose\" is not a parameter")
    #expect(error.hint == "write name=value, name:=json, name=@file or name=@-.path")
    #expect(error.status == .usage)
  }

  @Test(arguments: ["=x", ":=1", "=", ":=@f"])
  func withoutANameIsAnError(_ text: String) throws {
    let error = try #require(throws: APXError.self) { try ParamArgument(parsing: text) }
    #expect(error.message == "\"\(text)\" has no parameter name before '='")
    #expect(error.hint == "write name=value")
    #expect(error.status == .usage)
  }

  @Test(arguments: [
    ("tags:=[\"a\",", "tags", 6),
    ("n:=abc", "n", 1),
    ("n:=", "n", 1),
    ("n:=1 2", "n", 3),
    ("s:='x'", "s", 1),
  ])
  func invalidJSONIsAnErrorWithItsColumn(_ text: String, _ name: String, _ column: Int) throws {
    let error = try #require(throws: APXError.self) { try ParamArgument(parsing: text) }
    #expect(error.message.hasPrefix("the value of \(name):= is not valid JSON: "))
    #expect(error.message.hasSuffix(" at column \(column)"))
    #expect(error.hint == "quote it for the shell, e.g. \(name):='[\"a\",\"b\"]', or use \(name)=text for a string")
    #expect(error.status == .usage)
  }
}
