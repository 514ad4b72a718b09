import ArgumentParser

// `apx call`'s own options, one group per heading of its help, so that every option is listed
// under one. `CallCommand` forwards each value under its old name.

/// The request body and method of `apx call`.
struct CallBodyOptions: ParsableArguments {
  @Option(
    name: [.short, .customLong("data")],
    help: ArgumentHelp(
      "The request body: JSON text, @file or @- for stdin (streamed: upload progress on a terminal).",
      valueName: "BODY"),
    completion: .custom(ItemCompletion.completeBody))
  var data: String?

  @Option(
    name: [.customShort("X"), .customLong("request")],
    help: ArgumentHelp(
      "The HTTP method of a call to a URL, as curl's and xh's -X (the same as a METHOD before the URL).",
      valueName: "METHOD"))
  var requestMethod: String?

  @Flag(name: .customLong("form"), help: "Send body items as a form (multipart/form-data when there is a file part).")
  var form = false
}

/// Credentials given on the command line instead of the registry's.
struct CallAuthOptions: ParsableArguments {
  @Flag(
    name: .customLong("token-stdin"), help: "Read a bearer token from stdin and use it instead of the registry's auth.")
  var tokenStdin = false

  @Option(
    name: [.customShort("a"), .customLong("auth")],
    help: ArgumentHelp("Basic auth, instead of the registry's.", valueName: "USER:PASSWORD"))
  var basicAuth: String?

  @Option(
    name: .customLong("bearer"),
    help: ArgumentHelp("A bearer token, instead of the registry's auth.", valueName: "TOKEN"))
  var bearer: String?

  @Flag(name: .customLong("no-auth"), help: "Send no credentials from the registry.")
  var noAuth = false
}

/// Where an event or message stream stops, and how a URL is followed as one.
struct CallStreamOptions: ParsableArguments {
  @Option(
    name: .customLong("max-events"),
    // A negative number is its value (checked, with a clear message), not an unknown flag.
    parsing: .unconditional,
    help: ArgumentHelp("Stop a stream (SSE events, gRPC messages, NDJSON lines) after N items.", valueName: "N"))
  var maxEvents: Int?

  @Flag(
    name: .customLong("sse"),
    help: ArgumentHelp(
      "Follow the URL as a server-sent-events stream (reconnecting with Last-Event-ID), one JSON object per event, "
        + "whatever the answer's type (a text/event-stream answer is followed without --sse)."))
  var sse = false

  @Option(
    name: .customLong("until-event"),
    help: ArgumentHelp(
      "Stop an event stream successfully after an event of this type (repeatable; a REST answer that is not "
        + "text/event-stream is then a usage error).", valueName: "NAME"))
  var untilEvent: [String] = []
}

/// Following an endpoint's pages.
struct CallPagingOptions: ParsableArguments {
  @Flag(
    name: .customLong("all"),
    help: ArgumentHelp(
      "Follow the endpoint's pages (its registry pagination) and print every item as a stream, one JSON value "
        + "per line; --select applies to each item."))
  var all = false

  @Option(
    name: .customLong("max-items"),
    parsing: .unconditional,
    help: ArgumentHelp("With --all: stop after N items (no further page is fetched).", valueName: "N"))
  var maxItems: Int?

  @Option(
    name: .customLong("max-pages"),
    parsing: .unconditional,
    help: ArgumentHelp(
      "With --all: the page cap (default: the registry's max_pages, else 1000); more pages than this is an error.",
      valueName: "N"))
  var maxPages: Int?
}

/// Where the answer goes besides stdout, and what is kept of the call.
struct CallFileOptions: ParsableArguments {
  @Option(
    name: .customLong("save"),
    help: ArgumentHelp(
      "URL: once the call succeeds, save it in the registry as this endpoint (values become defaults).",
      valueName: "API.ENDPOINT"))
  var save: String?

  @Option(
    name: [.customShort("O"), .customLong("output-file")],
    help: ArgumentHelp(
      "Write the body (or stream items) to FILE instead of stdout: as received unless -o or --select says otherwise, replacing FILE only once the call succeeds; progress on a terminal.",
      valueName: "FILE"))
  var outputFile: String?

  @Flag(
    name: .customLong("continue"),
    help: ArgumentHelp(
      "With -O: keep a failed or interrupted download and resume it on the next --continue (Range and If-Range); "
        + "a FILE another tool left half-written is resumed from its size; "
        + "a server that sends the whole file again starts it over."))
  var continueDownload = false
}

/// Seeing the request, or the answer's head, instead of or before the body.
struct CallPreviewOptions: ParsableArguments {
  @Flag(
    name: [.short, .customLong("include")],
    help: ArgumentHelp(
      "Print the answer's status line and headers (credentials masked) on stdout before its body, as curl -i does."))
  var include = false

  @Flag(
    name: .customLong("dry-run"),
    help:
      "Print the resolved request as JSON (method, URL, headers, body; gRPC: target, method, metadata, message) and send nothing."
  )
  var dryRun = false

  @Flag(
    name: .customLong("curl"),
    help: "Print an equivalent curl command line (gRPC: grpcurl) and send nothing.")
  var curl = false

  @Flag(
    name: .customLong("show-secrets"),
    help: "With --dry-run or --curl: show tokens, keys and passwords instead of *** (for copy and paste).")
  var showSecrets = false
}
