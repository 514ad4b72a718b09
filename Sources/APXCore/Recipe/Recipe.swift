/// A recipe: typed inputs, steps that call registry endpoints with their data
/// flowing forward, and an output template. Loaded by `RecipeLoader`,
/// checked against the registry by `RecipeValidator`, run by APXRuntime's
/// `RecipeRunner`.
public struct Recipe: Sendable {
  /// The recipe's name (journals and reports use it).
  public var name: String
  public var description: String?
  /// Inputs in file order.
  public var inputs: [RecipeInput]
  /// Steps in file order (the order they run in).
  public var steps: [RecipeStep]
  /// What the run prints on stdout at the end; every string in it is a template.
  public var output: JSONValue?
  /// Where the output template starts.
  public var outputLocation: SourceLocation?
  /// The file the recipe came from (messages name it).
  public var file: String

  /// Makes a recipe.
  public init(
    name: String, description: String? = nil, inputs: [RecipeInput] = [], steps: [RecipeStep] = [],
    output: JSONValue? = nil, outputLocation: SourceLocation? = nil, file: String
  ) {
    self.name = name
    self.description = description
    self.inputs = inputs
    self.steps = steps
    self.output = output
    self.outputLocation = outputLocation
    self.file = file
  }

  /// The input named `name`.
  public func input(named name: String) -> RecipeInput? { inputs.first { $0.name == name } }

  /// The index of the step with id `id`.
  public func stepIndex(id: String) -> Int? { steps.firstIndex { $0.id == id } }
}

/// The type of a recipe input.
public enum RecipeInputType: String, Sendable, Hashable, CaseIterable {
  case string, number, boolean, file, json
}

/// One declared input: `name=value` on the command line, or its default.
public struct RecipeInput: Sendable, Hashable {
  public var name: String
  public var type: RecipeInputType
  public var required: Bool
  /// Used when the input is not given (may itself be a template over `${env:NAME}`).
  public var defaultValue: JSONValue?
  public var description: String?
  /// Masked in journals, events and dry-run output.
  public var secret: Bool
  public var location: SourceLocation?

  /// Makes an input.
  public init(
    name: String, type: RecipeInputType = .string, required: Bool = false, defaultValue: JSONValue? = nil,
    description: String? = nil, secret: Bool = false, location: SourceLocation? = nil
  ) {
    self.name = name
    self.type = type
    self.required = required
    self.defaultValue = defaultValue
    self.description = description
    self.secret = secret
    self.location = location
  }
}

/// One step of a recipe.
public struct RecipeStep: Sendable {
  /// Unique within the recipe; later steps refer to `${steps.ID...}`.
  public var id: String
  /// `API.ENDPOINT` as written.
  public var call: String
  /// The API name (before the first dot).
  public var api: String
  /// The endpoint name (after the first dot).
  public var endpoint: String
  /// Parameters by name; strings are templates.
  public var with: [JSONMember]
  /// Extra request headers; values are templates.
  public var headers: [JSONMember]
  /// A whole request body (`-d`), a template.
  public var body: JSONValue?
  public var expect: RecipeExpect?
  /// Named values taken from the step's result by path.
  public var capture: [RecipeCapture]
  /// Streams: stop once an item satisfies this. Other calls: repeat until the result satisfies it.
  public var until: RecipeCondition?
  /// Upper bound for `until` repetitions of a non-stream call.
  public var maxIterations: Int?
  /// Seconds between `until` repetitions of a non-stream call.
  public var interval: Double?
  /// Stop a stream after this many items.
  public var maxEvents: Int?
  /// Follow every page of a paginated endpoint (`"all": true`): the result is the items' stream.
  public var all = false
  /// With `all`: stop after this many items (`"max_items"`).
  public var maxItems: Int?
  /// Attempts for retryable failures (overrides the registry's policy).
  public var retry: Int?
  /// Seconds before the call gives up.
  public var timeout: Double?
  /// Skip the step unless this holds.
  public var condition: RecipeCondition?
  public var foreach: RecipeForeach?
  /// A failure is recorded but the run carries on.
  public var continueOnError: Bool
  /// More JSON-RPC calls sent with this one in one batch request (`"batch": [{"call", "with"}]`);
  /// each is a step of its own `call` and `with` only. The result's body is the answers in call order.
  public var batch: [RecipeStep] = []
  /// For a call of a batch: its index in the step's `batch`.
  public var batchIndex: Int?
  /// Where in the file the step starts, and its index.
  public var location: SourceLocation?
  public var index: Int

  /// What this step's call of `endpoint` gives: the stream of its pages' items when the step
  /// says `all`, else the endpoint's own result.
  public func resultShape(of endpoint: Endpoint) -> EndpointResultShape {
    all ? .pages : endpoint.resultShape
  }

  /// Makes a step.
  public init(
    id: String, call: String, with: [JSONMember] = [], headers: [JSONMember] = [], body: JSONValue? = nil,
    expect: RecipeExpect? = nil, capture: [RecipeCapture] = [], until: RecipeCondition? = nil,
    maxIterations: Int? = nil, interval: Double? = nil, maxEvents: Int? = nil, retry: Int? = nil,
    timeout: Double? = nil, condition: RecipeCondition? = nil, foreach: RecipeForeach? = nil,
    continueOnError: Bool = false, location: SourceLocation? = nil, index: Int = 0
  ) {
    self.id = id
    self.call = call
    if let dot = call.firstIndex(of: ".") {
      self.api = String(call[..<dot])
      self.endpoint = String(call[call.index(after: dot)...])
    } else {
      self.api = call
      self.endpoint = ""
    }
    self.with = with
    self.headers = headers
    self.body = body
    self.expect = expect
    self.capture = capture
    self.until = until
    self.maxIterations = maxIterations
    self.interval = interval
    self.maxEvents = maxEvents
    self.retry = retry
    self.timeout = timeout
    self.condition = condition
    self.foreach = foreach
    self.continueOnError = continueOnError
    self.location = location
    self.index = index
  }

  /// The JSON path of this step in its file (`.steps[2]`), for messages.
  public var documentPath: [JSONPathComponent] {
    [.key("steps"), .index(index)] + (batchIndex.map { [.key("batch"), .index($0)] } ?? [])
  }
}

/// `expect`: what a step's result must look like.
public struct RecipeExpect: Sendable, Hashable {
  /// Allowed statuses (HTTP, or 200 for a finished stream / gRPC OK).
  public var status: [Int]?
  /// Checks on paths of the step result (`.body.job_id`).
  public var checks: [RecipeCheck]

  /// Makes an expectation.
  public init(status: [Int]? = nil, checks: [RecipeCheck] = []) {
    self.status = status
    self.checks = checks
  }
}

/// `if` and `until`: a template that must be truthy, or a check.
public enum RecipeCondition: Sendable, Hashable {
  /// Holds when the rendered template is truthy (not null, false, 0, "", "false", [] or {}).
  case truthy(Template)
  /// Holds when the check passes.
  case check(RecipeCheck)
}

/// `capture`: a name for the value at a path of the step result.
public struct RecipeCapture: Sendable, Hashable {
  public var name: String
  public var path: JSONPath

  /// Makes a capture.
  public init(name: String, path: JSONPath) {
    self.name = name
    self.path = path
  }
}

/// `foreach`: run the step once per item (or per chunk of items).
public struct RecipeForeach: Sendable, Hashable {
  /// The list: a template (`${steps.pages[].body.data.data[]}`) or a literal array.
  public var over: JSONValue
  /// The namespace the item is bound to inside the step (`${gif.slug}`).
  public var name: String
  /// How many items run at the same time.
  public var concurrency: Int
  /// When set, the item is an array of up to this many consecutive items.
  public var chunk: Int?

  /// Makes a loop.
  public init(over: JSONValue, name: String = "item", concurrency: Int = 1, chunk: Int? = nil) {
    self.over = over
    self.name = name
    self.concurrency = concurrency
    self.chunk = chunk
  }
}

/// Number formatting for messages.
enum RecipeNumber {
  static func text(_ d: Double) -> String {
    d.rounded() == d && abs(d) < 1e15 ? String(Int(d)) : String(d)
  }
}
