public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `--save API.ENDPOINT`: writes an ad-hoc call into the API's registry file with the
/// registry writer, creating the file or adding the endpoint to it without touching
/// what is there. The new text is made and loaded (checked) before the call; it is
/// written, atomically, once the call has succeeded. It prints nothing: what it cannot keep
/// comes back in the plan's `warnings`, for the front end to show.
public struct AdHocSave: Sendable {
  /// The API the call is saved under.
  public let api: String
  /// The endpoint's name in that API.
  public let endpoint: String

  /// What to write where.
  public struct Plan: Sendable {
    public var path: String
    public var text: String
    /// The folder to create first (a new file in a registry folder that does not exist yet).
    public var folder: String?
    /// What is not saved, and why (credentials, `--until-event` on a REST endpoint).
    public var warnings: [String] = []
  }

  /// The ad-hoc call to save, as it was sent.
  public struct Call: Sendable {
    /// The endpoint made from the URL and the items.
    public var endpoint: Endpoint
    /// The URL called.
    public var url: AdHocURL
    /// The base URL the call went to, when the URL matched no API's.
    public var fixedBaseURL: String?
    /// The headers from the items.
    public var headers: [HeaderField]
    /// `--until-event`: event types that stopped the call's stream.
    public var untilEvent: [String]

    public init(
      endpoint: Endpoint, url: AdHocURL, fixedBaseURL: String?, headers: [HeaderField], untilEvent: [String]
    ) {
      self.endpoint = endpoint
      self.url = url
      self.fixedBaseURL = fixedBaseURL
      self.headers = headers
      self.untilEvent = untilEvent
    }
  }

  /// The longest API name `--save` takes: its file, `API.json`, must fit in a file name
  /// (255 bytes on Linux and macOS). Longer, the write failed after the call with a hint
  /// about the folder's permissions.
  public static let maxAPINameLength = 250

  /// Reads `API.ENDPOINT`; exit 2 when it is not one.
  public init(_ text: String) throws {
    guard let dot = text.firstIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex else {
      throw APXError(.usage, "--save needs API.ENDPOINT, got \"\(text)\"", hint: "e.g. --save myapi.users.get")
    }
    api = String(text[..<dot])
    endpoint = String(text[text.index(after: dot)...])
    guard
      api.unicodeScalars.allSatisfy({
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
      })
    else {
      throw APXError(.usage, "--save: \"\(api)\" is not an API name", hint: "use letters, digits, '_' and '-'")
    }
    // ASCII only (checked above), so characters are bytes.
    if api.utf8.count > Self.maxAPINameLength {
      throw APXError(
        .usage,
        "--save: the API name is \(api.utf8.count) characters long; it may have at most \(Self.maxAPINameLength)",
        hint: "the call is saved in API.json, and a file name holds at most 255 bytes: choose a shorter API name")
    }
  }

  /// The file and text for `call` (bound to `values`, with the `-d` body `data`).
  public func plan(
    _ call: Call, values: [(name: String, value: BoundValue)], data: RequestBuilder.DataBody?,
    registry: RegistryFiles
  ) throws -> Plan {
    let url = call.url
    var warnings: [String] = []
    var endpoint = call.endpoint
    // `--until-event` is the call's: a saved SSE endpoint keeps it, so the saved call stops where
    // this one did; a registry REST endpoint has no until_event to keep it in.
    if !call.untilEvent.isEmpty {
      if !endpoint.options.updateEvents({ $0.untilEvent += call.untilEvent }) {
        warnings.append(
          "apx: --save: --until-event is not saved: a \(endpoint.kind.rawValue) endpoint has no until_event "
            + "(give --sse to save the URL as an SSE endpoint)")
      }
    }
    var values = values
    if let data {
      // A -d JSON object is saved as one parameter per member, so each can be changed later.
      guard case .json(let bytes) = data, case .object(let members)? = try? JSONParser.parse(bytes) else {
        throw APXError(
          .usage, "--save can keep a -d body only when it is a JSON object given on the command line",
          hint: "give the fields as items (name=value, name:=json) or as -d '{...}'")
      }
      for member in members {
        // A gRPC message takes any field of its schema: only an HTTP body declares its members.
        if endpoint.kind.isHTTPRequest { endpoint.params.append(Param(name: member.key, location: .body)) }
        values.append((member.key, .json(member.value)))
      }
      AdHocEndpoint.settleTypes(&endpoint, values: values)
    }
    let existing = try? registry.path(of: api)
    var baseURL = call.fixedBaseURL ?? url.origin
    var environmentName = "default"
    if let existing {
      let current = try RegistryFiles.load(path: existing)
      // The path is saved relative to a base URL of that API, which the URL must fall under.
      guard let env = current.environments.first(where: { BaseURLMatch.covers(baseURL: $0.baseURL, url: url) }) else {
        throw APXError(
          .usage, "--save: \(url.text) is not under a base URL of the API \"\(api)\" (\(existing))",
          hint:
            "its base URLs: \(current.environments.map(\.baseURL).joined(separator: ", ")); save under another API name"
        )
      }
      baseURL = env.baseURL
      environmentName = env.name
    }
    // An HTTP request's path goes under the base URL's (gRPC has no route).
    let basePath = (try? AdHocURL(parsing: baseURL)).map { $0.path == "/" ? "" : $0.path } ?? ""
    let path = String(url.pathAndQuery.dropFirst(basePath.hasSuffix("/") ? basePath.count - 1 : basePath.count))
    if let rerouted = endpoint.options.rerouted(HTTPRoute(method: endpoint.method, path: path)) {
      endpoint.options = rerouted
    }
    let (saved, leftOut, valuesLeftOut) = try SavedEndpoint.make(
      name: self.endpoint, from: endpoint, values: values, headers: call.headers,
      isSecret: { CredentialHeaders.isCredential($0) })
    for name in leftOut {
      warnings.append(
        "apx: --save: the header \(name) is not saved (credentials belong in the API's auth, not in a file)")
    }
    for name in valuesLeftOut {
      warnings.append(
        "apx: --save: the value of \(name) is not saved (a credential); the saved call asks for it: \(name)=...")
    }
    var plan: Plan
    if let existing {
      let current = String(decoding: try FileBytes.read(existing), as: UTF8.self)
      plan = Plan(path: existing, text: try RegistryTextEditor.adding(saved, to: current, file: existing))
    } else {
      let folder = registry.directories.first { !$0.hasSuffix(".json") } ?? "Endpoints"
      let path = folder + "/" + api + ".json"
      let definition = APIDefinition(
        name: api, environments: [NamedEnvironment(name: environmentName, baseURL: baseURL)],
        defaultEnvironment: environmentName, endpoints: [saved], sourceFile: path)
      plan = Plan(path: path, text: RegistryWriter.text(definition), folder: folder)
    }
    // Checked before anything is written: what the loader refuses is never written.
    let loaded = try RegistryLoader.load(Array(plan.text.utf8), file: plan.path)
    guard loaded.name == api, loaded.endpoint(named: self.endpoint) != nil else {
      throw APXError(.internalFailure, "--save: the written registry text does not define \(api).\(self.endpoint)")
    }
    plan.warnings = warnings
    return plan
  }

  /// Writes the planned file (atomically: a reader never sees half of it).
  public static func write(_ plan: Plan) throws {
    do {
      if let folder = plan.folder {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      try Data(plan.text.utf8).write(to: URL(fileURLWithPath: plan.path), options: .atomic)
    } catch {
      throw APXError(
        .usage, "--save: cannot write \(plan.path)", hint: "check the folder's permissions",
        cause: FileErrorText.describe(error), underlying: error)
    }
  }
}
