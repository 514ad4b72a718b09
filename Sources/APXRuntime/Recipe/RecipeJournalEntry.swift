public import APXCore

/// One line of a run's journal, typed: the only encoder (`json`) and the only
/// decoder (`init(json:)`) of the journal format, so the runner, the CLI and
/// `--resume` cannot disagree about a field's name or type.
///
/// `{"type":"start",…}` once per start or resume; `{"type":"started",…}`
/// before each call that is not safe to repeat goes out; `{"type":"step",…}` per
/// finished step; `{"type":"event",…}` per stream item of a running step;
/// `{"type":"item",…}` per finished foreach item; `{"type":"interrupted",…}`
/// when Ctrl-C stopped a step; `{"type":"end",…}` when the run stops.
public enum RecipeJournalEntry: Sendable, Hashable {
  /// The run started (or was resumed).
  case start(RecipeJournalStart)
  /// A call that is not safe to repeat is about to be sent: the step, its foreach item (if
  /// any) and what is sent (`POST /api/v2/imports`). Until a `step` line (or, for an item, an
  /// `item` line) follows, `--resume` cannot know whether the server received it.
  case started(step: String, index: Int?, request: String)
  /// A step finished; `result` is what later steps read of it (trimmed).
  case step(id: String, state: RecipeStepState, result: JSONValue, durationMs: Int)
  /// One stream item (SSE event, gRPC message) of a step that has not finished.
  case event(step: String, item: JSONValue)
  /// One foreach item (or chunk) finished: item `index` of `of`; `result` only when something later reads it.
  case item(step: String, index: Int, of: Int, result: JSONValue?)
  /// Ctrl-C stopped the run during `step`.
  case interrupted(step: String)
  /// The run stopped: `ok`, `failed` or `interrupted`.
  case end(state: String, at: String)

  /// The journal line (before masking).
  public var json: JSONValue {
    switch self {
    case .start(let s):
      return .object([
        JSONMember("type", .string("start")), JSONMember("run_id", .string(s.runID)),
        JSONMember("recipe", .string(s.recipePath)), JSONMember("name", .string(s.name)),
        JSONMember("inputs", .object(s.inputs)),
        JSONMember("secret_inputs", .array(s.secretInputs.map(JSONValue.string))),
        JSONMember("resumed", .bool(s.resumed)), JSONMember("at", .string(s.at)),
      ])
    case .step(let id, let state, let result, let durationMs):
      return .object([
        JSONMember("type", .string("step")), JSONMember("id", .string(id)),
        JSONMember("state", .string(state.rawValue)),
        JSONMember("result", result), JSONMember("duration_ms", .int(durationMs)),
      ])
    case .started(let step, let index, let request):
      var members = [JSONMember("type", .string("started")), JSONMember("step", .string(step))]
      if let index { members.append(JSONMember("index", .int(index))) }
      members.append(JSONMember("request", .string(request)))
      return .object(members)
    case .event(let step, let item):
      return .object([
        JSONMember("type", .string("event")), JSONMember("step", .string(step)), JSONMember("item", item),
      ])
    case .item(let step, let index, let of, let result):
      var members = [
        JSONMember("type", .string("item")), JSONMember("step", .string(step)), JSONMember("index", .int(index)),
        JSONMember("of", .int(of)),
      ]
      if let result { members.append(JSONMember("result", result)) }
      return .object(members)
    case .interrupted(let step):
      return .object([JSONMember("type", .string("interrupted")), JSONMember("step", .string(step))])
    case .end(let state, let at):
      return .object([
        JSONMember("type", .string("end")), JSONMember("state", .string(state)), JSONMember("at", .string(at)),
      ])
    }
  }

  /// Reads one journal line; nil for a line of another type or with a field
  /// missing (a journal written by a newer apx, or cut short by a crash).
  public init?(json value: JSONValue) {
    switch value["type"]?.stringValue {
    case "start":
      self = .start(
        RecipeJournalStart(
          runID: value["run_id"]?.stringValue ?? "", recipePath: value["recipe"]?.stringValue ?? "",
          name: value["name"]?.stringValue ?? "", inputs: value["inputs"]?.objectMembers ?? [],
          secretInputs: value["secret_inputs"]?.arrayValue?.compactMap(\.stringValue) ?? [],
          resumed: value["resumed"] == .bool(true), at: value["at"]?.stringValue ?? ""))
    case "step":
      guard let id = value["id"]?.stringValue, let state = value["state"]?.stringValue.flatMap(RecipeStepState.init)
      else { return nil }
      self = .step(
        id: id, state: state, result: value["result"] ?? .null, durationMs: value["duration_ms"]?.intValue ?? 0)
    case "started":
      guard let step = value["step"]?.stringValue else { return nil }
      self = .started(step: step, index: value["index"]?.intValue, request: value["request"]?.stringValue ?? "")
    case "event":
      guard let step = value["step"]?.stringValue, let item = value["item"] else { return nil }
      self = .event(step: step, item: item)
    case "item":
      guard let step = value["step"]?.stringValue, let index = value["index"]?.intValue, let of = value["of"]?.intValue
      else { return nil }
      self = .item(step: step, index: index, of: of, result: value["result"])
    case "interrupted":
      guard let step = value["step"]?.stringValue else { return nil }
      self = .interrupted(step: step)
    case "end":
      guard let state = value["state"]?.stringValue else { return nil }
      self = .end(state: state, at: value["at"]?.stringValue ?? "")
    default:
      return nil
    }
  }
}

/// The first line of a run's journal (and of each resume).
public struct RecipeJournalStart: Sendable, Hashable {
  /// The run's id.
  public var runID: String
  /// The recipe file's absolute path (`--resume` finds runs by it).
  public var recipePath: String
  /// The recipe's name.
  public var name: String
  /// The bound inputs, secret ones masked as `***`.
  public var inputs: [JSONMember]
  /// Names of the secret inputs, which `--resume` needs again.
  public var secretInputs: [String]
  /// Whether this start resumes an earlier one.
  public var resumed: Bool
  /// ISO 8601 time of the start.
  public var at: String

  /// Makes a start line.
  public init(
    runID: String, recipePath: String, name: String = "", inputs: [JSONMember] = [], secretInputs: [String] = [],
    resumed: Bool = false, at: String = ""
  ) {
    self.runID = runID
    self.recipePath = recipePath
    self.name = name
    self.inputs = inputs
    self.secretInputs = secretInputs
    self.resumed = resumed
    self.at = at
  }
}
