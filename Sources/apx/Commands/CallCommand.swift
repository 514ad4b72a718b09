import APXCore
import APXRuntime
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apx call API.ENDPOINT [ITEM ...]` or `apx call [METHOD] URL [ITEM ...]`
struct CallCommand: ContextCommand {
  static let runsOnCommandEventLoop = true
  static let configuration = CommandConfiguration(
    commandName: "call",
    abstract: "Call a registry endpoint, or any URL, and print the result as JSON.",
    discussion: """
      The target is API.ENDPOINT, or a URL: a target with a scheme, or containing '/' or ':',
      is a URL (API and endpoint names contain neither). :8080/path and localhost:8080/path
      mean http://localhost:8080/path. METHOD defaults to GET, or POST when there is a body.

      Items (as in HTTPie and xh):
        name=text        a value (a JSON string field of an ad-hoc call's body)
        name:=json       a raw JSON value: count:=3  tags:='["a","b"]'
        name=@path       a file's text (streamed when a registry parameter is a file)
        name:=@path      a JSON value read from a file
        name=@-.path     the value at a jq-style path of the JSON document on stdin:
                         apx call books.imports.create csv=@b.csv | apx call books.imports.status job_id=@-.job_id
        name@path        a multipart file part, streamed from disk
        Name:value       a header ('Name:' removes one)
        name==value      a query parameter
        a[b][]=x         nested: {"a":{"b":["x"]}}; in a form, the field a[b][]
      A '\\' before ':', '=', '@', '[', ']' or '\\' in a name makes it part of the name.

      When a URL falls under an environment's base URL in the registry, that API's auth,
      headers and retry policy apply (-v names it; --no-auth drops the auth).

      REST prints the response body; SSE and gRPC streams print one JSON object per line.
      A text/event-stream answer is followed as events (as with --sse), reconnecting with
      Last-Event-ID when the request may be sent again; an NDJSON / JSON Lines answer prints
      each line as it arrives (--max-events N stops it).

      GraphQL: a URL with --graphql DOCUMENT (text or @file) sends a GraphQL POST whose
      variables are the items; the data prints, errors go to stderr and exit 12:
        apx call https://host/graphql --graphql 'query($id: ID!) { book(id: $id) { title } }' id=1

      JSON-RPC prints the result (an error object exits 11 with its code, message and data).
      A batch joins calls with a lone +, sent as one request; the answers print as an array
      in call order:
        apx call calc.add a:=1 b:=2 + calc.subtract minuend:=5 subtrahend:=3

      --all follows the pages an endpoint declares (Link: rel="next", a next cursor or gRPC page token, page
      numbers) and prints the items one per line as they come, one page in memory at a time: --max-items N
      stops early, and a loop, a next link to another origin or more pages than --max-pages ends with exit 9.

      --dry-run and --curl resolve the call as it would be sent (auth, headers, body) and send nothing;
      no token is fetched: a stored one is used, else a placeholder (apx auth login API gets one).
      Secrets show as *** unless --show-secrets.
      When stderr is a terminal, a download (-O FILE, -o raw > file) and an upload from a file
      (-d @file, name=@file, name@file) show a progress bar on stderr after 0.5 s or 1 MiB: bytes,
      total, rate, percent, ETA. An upload's bar is erased before the answer; Ctrl-C erases a bar.
      """
  )

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: ArgumentHelp(
      "The endpoint, API.ENDPOINT (see `apx list`), or [METHOD] URL.", valueName: "API.ENDPOINT | [METHOD] URL"),
    completion: .custom(EndpointCompletion.complete))
  var target: String

  @Argument(
    help: ArgumentHelp(
      "Items: name=value, name:=json, name=@file, name:=@file, name=@-.path, name@file, Name:value, name==value; "
        + "+ API.ENDPOINT [ITEM ...] adds a JSON-RPC call to a batch.",
      valueName: "ITEM"), completion: .custom(ItemCompletion.complete))
  var params: [String] = []

  @OptionGroup(title: "Body options") var body: CallBodyOptions
  @OptionGroup(title: "Auth options") var authFlags: CallAuthOptions
  @OptionGroup(title: "Stream options") var stream: CallStreamOptions
  @OptionGroup(title: "Paging options") var paging: CallPagingOptions
  @OptionGroup(title: "Files and records") var files: CallFileOptions
  @OptionGroup(title: "Preview options") var preview: CallPreviewOptions

  @OptionGroup(title: "WebSocket options") var webSocket: WebSocketOptionGroup

  @OptionGroup(title: "GraphQL options") var graphQL: GraphQLOptionGroup

  @OptionGroup(title: "gRPC options") var schema: GRPCSchemaOptions

  @OptionGroup(title: "Files and records") var cookieSession: CookieSessionOption

  @OptionGroup(title: "Files and records") var harOption: HAROption

  // The groups' values under the names the rest of the command uses.
  var data: String? { body.data }
  var requestMethod: String? { body.requestMethod }
  var form: Bool { body.form }
  var tokenStdin: Bool { authFlags.tokenStdin }
  var basicAuth: String? { authFlags.basicAuth }
  var bearer: String? { authFlags.bearer }
  var noAuth: Bool { authFlags.noAuth }
  var maxEvents: Int? { stream.maxEvents }
  var sse: Bool { stream.sse }
  var untilEvent: [String] { stream.untilEvent }
  var all: Bool { paging.all }
  var maxItems: Int? { paging.maxItems }
  var maxPages: Int? { paging.maxPages }
  var save: String? { files.save }
  var outputFile: String? { files.outputFile }
  var continueDownload: Bool { files.continueDownload }
  var include: Bool { preview.include }
  var dryRun: Bool { preview.dryRun }
  var curl: Bool { preview.curl }
  var showSecrets: Bool { preview.showSecrets }

  func validate() throws {
    if let problem { throw ValidationError(problem) }
  }

  /// The lone argument that joins JSON-RPC calls into one batch request.
  static let batchSeparator = "+"

  /// The calls named on the command line: the target with its params, then one
  /// `API.ENDPOINT ITEM...` group after each `+` (a JSON-RPC batch).
  var calls: [(target: String, params: [String])] {
    var groups: [(target: String, params: [String])] = [(target, [])]
    var expectTarget = false
    for word in params {
      if word == Self.batchSeparator {
        expectTarget = true
      } else if expectTarget {
        groups.append((word, []))
        expectTarget = false
      } else {
        groups[groups.count - 1].params.append(word)
      }
    }
    return groups
  }

  /// Why these arguments cannot be used together, or nil (the option groups check their own:
  /// ArgumentParser validates each group before the command).
  var problem: String? {
    if let n = maxEvents, n < 1 { return "--max-events must be at least 1" }
    if let n = webSocket.maxMessages, n < 1 { return "--max-messages must be at least 1" }
    if let problem = pagingProblem { return problem }
    if params.last == Self.batchSeparator {
      return "a + must be followed by another call: + API.ENDPOINT [ITEM ...]"
    }
    if params.contains(Self.batchSeparator), data != nil {
      return "-d cannot be used in a batch: give each call its parameters as items (name=value, name:=json)"
    }
    if tokenStdin, data == "@-" || params.contains(where: { $0.contains("=@-") }) {
      return "--token-stdin reads stdin, so the body or a parameter cannot come from stdin too"
    }
    if [basicAuth != nil, bearer != nil, tokenStdin].filter({ $0 }).count > 1 {
      return "-a, --bearer and --token-stdin each give the credentials: use one"
    }
    if let basicAuth, !basicAuth.contains(":") { return "-a needs USER:PASSWORD" }
    if form && data != nil { return "--form builds the body from items, so it cannot go with -d" }
    if include, outputFile != nil {
      return
        "-i prints the answer's head on stdout, and -O sends the body to a file: drop one (-v shows the head on stderr)"
    }
    if continueDownload {
      if outputFile == nil { return "--continue resumes a download: give the file with -O FILE" }
      if global.select != nil || (global.output != nil && global.output != .raw) || all {
        return "--continue appends the bytes the server sends, so it cannot go with --select, -o or --all"
      }
      if global.headerFields.contains(where: { ["range", "if-range"].contains($0.name.lowercased()) }) {
        return "--continue sets Range and If-Range itself: drop those -H headers"
      }
    }
    if cookieSession.name != nil || harOption.path != nil, dryRun || curl {
      return "\(cookieSession.name != nil ? "--session keeps the cookies" : "--har records the exchanges") of requests "
        + "that are sent; \(dryRun ? "--dry-run" : "--curl") sends none"
    }
    return previewProblem
  }
}
