public import APXCore

/// What an import produced: the registry values and what the user should know.
public struct ImportReport: Sendable {
  /// The API to write (its `sourceFile` is empty until the caller writes it).
  public var api: APIDefinition
  /// The description's kind and version, e.g. `OpenAPI 3.1.0`, `Swagger 2.0`.
  public var format: String
  /// Operations found in the description (callable ones and skipped ones).
  public var operationCount: Int = 0
  /// What was not imported and why, in document order.
  public var skipped: [ImportSkip] = []
  /// Imported, but not exactly as described (e.g. an auth flow apx cannot run).
  public var notes: [String] = []
  /// Environment variables the imported auth reads, in order of first use.
  public var environmentVariables: [String] = []

  public init(api: APIDefinition, format: String) {
    self.api = api
    self.format = format
  }

  mutating func note(_ text: String) {
    if !notes.contains(text) { notes.append(text) }
  }

  mutating func needs(_ variable: String) {
    if !environmentVariables.contains(variable) { environmentVariables.append(variable) }
  }
}

/// One operation (or callback, webhook) that was not imported.
public struct ImportSkip: Sendable, Hashable {
  /// What was skipped, e.g. `POST /pets (addPet)` or `webhook newPet`.
  public var item: String
  public var reason: String

  public init(item: String, reason: String) {
    self.item = item
    self.reason = reason
  }
}

/// Why one operation could not be imported.
struct OperationSkip: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
