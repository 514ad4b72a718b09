import APXCore
import APXRuntime
import ArgumentParser
import Foundation

/// `apx call API.ENDPOINT [name=value | name:=json | name=@file ...]`
struct CallCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "call",
    abstract: "Call one endpoint from the registry and print the result as JSON.",
    discussion: """
      Parameters:
        name=text        a value (converted to the parameter's type)
        name:=json       a raw JSON value: count:=3  tags:='["a","b"]'
        name=@path       a file (streamed when the parameter is a file; else its text)
        name:=@path      a JSON value read from a file
        name=@-.path     the value at a jq-style path of the JSON document on stdin:
                         apx call books.imports.create csv=@b.csv | apx call books.imports.status job_id=@-.job_id
      REST prints the response body; SSE and gRPC streams print one JSON object per line.
      """
  )

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: ArgumentHelp("The endpoint, API.ENDPOINT (see `apx list`).", valueName: "API.ENDPOINT"),
    completion: .custom(EndpointCompletion.complete))
  var target: String

  @Argument(help: ArgumentHelp("Parameters: name=value, name:=json, name=@file, name=@-.path.", valueName: "PARAM"))
  var params: [String] = []

  @Option(
    name: [.short, .customLong("data")],
    help: ArgumentHelp("The request body: JSON text, @file or @- for stdin.", valueName: "BODY"))
  var data: String?

  @Option(
    name: .customLong("max-events"),
    help: ArgumentHelp("Stop a stream after this many events or messages.", valueName: "N"))
  var maxEvents: Int?

  @Flag(
    name: .customLong("token-stdin"), help: "Read a bearer token from stdin and use it instead of the registry's auth.")
  var tokenStdin = false

  func validate() throws {
    if let problem = invocation.problem { throw ValidationError(problem) }
  }

  /// The parsed arguments as plain data.
  var invocation: CallInvocation {
    CallInvocation(
      global: global.values, target: target, params: params, data: data, maxEvents: maxEvents, tokenStdin: tokenStdin)
  }

  func run() async throws {
    try await invocation.run()
  }
}
