import Foundation

// apx-bench: in-process benchmarks that a whole-process comparison cannot
// isolate. scripts/bench/bench.py runs the release build of it.
//
//   apx-bench codec [--iterations N] [--protoset PATH] [--json]

let usage = """
  usage: apx-bench codec [--iterations N] [--protoset PATH] [--json]
    codec   encode+decode of a typical classnotes.v1.Lesson: APXProtobuf vs swift-protobuf generated code
    --iterations N     operations per measurement (default 200000)
    --protoset PATH    the classnotes descriptor set (default Protos/classnotes.protoset)
    --json             print one JSON line instead of a table

  """

func fail(_ message: String, status: Int32 = 2) -> Never {
  FileHandle.standardError.write(Data(("apx-bench: " + message + "\n").utf8))
  exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "codec" else {
  fail(arguments.isEmpty ? "no benchmark named\n" + usage : "unknown benchmark '\(arguments[0])'\n" + usage)
}
arguments.removeFirst()
var iterations = 200_000
var protosetPath = "Protos/classnotes.protoset"
var asJSON = false
while let argument = arguments.first {
  arguments.removeFirst()
  switch argument {
  case "--json": asJSON = true
  case "--iterations":
    guard let value = arguments.first.flatMap({ Int($0) }), value > 0 else {
      fail("--iterations takes a positive integer")
    }
    iterations = value
    arguments.removeFirst()
  case "--protoset":
    guard let value = arguments.first else { fail("--protoset takes a file path") }
    protosetPath = value
    arguments.removeFirst()
  case "-h", "--help":
    print(usage, terminator: "")
    exit(0)
  default: fail("unknown option '\(argument)'\n" + usage)
  }
}
guard let protoset = FileManager.default.contents(atPath: protosetPath) else {
  fail("cannot read the protoset \(protosetPath): run from the repository root or pass --protoset PATH")
}
do {
  let result = try CodecBenchmark(protoset: Array(protoset), iterations: iterations).run()
  print(asJSON ? CodecReport.json(result) : CodecReport.text(result), terminator: "")
} catch {
  fail("\(error)", status: 1)
}
