import APXCore
import APXGraphQL
import APXRuntime
import ArgumentParser

/// `apx list --graphql URL` and `apx describe URL --graphql NAME`: the schema comes from the
/// server's introspection, or from `--schema FILE` (SDL, or a saved introspection result) where
/// the server forbids introspection.
struct GraphQLSchemaOptions: ParsableArguments {
  @Option(
    name: .customLong("schema"),
    help: ArgumentHelp(
      "GraphQL: read the schema from this file (.graphql SDL, or an introspection result as .json) instead of "
        + "asking the server.", valueName: "FILE"))
  var schemaFile: String?

  /// The schema of the GraphQL server at `url`.
  func load(url: String, global: GlobalOptions, context: Context) async throws -> GraphQLSchemaSummary {
    if let schemaFile { return try await Self.read(schemaFile) }
    return try await Self.introspect(
      url: url, session: try global.sessionOptions(context.environment), headers: global.headerFields,
      timeout: global.timeout, maxAttempts: global.noRetry ? 1 : global.retry, environment: context.environment)
  }

  /// The schema in `path`: an introspection result when the file starts with `{`, else SDL.
  static func read(_ schemaFile: String) async throws -> GraphQLSchemaSummary {
    let bytes = try FileBytes.read(schemaFile)
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw APXError(.usage, "\(schemaFile) is not UTF-8 text")
    }
    if text.drop(while: \.isWhitespace).first == "{" {
      let json: JSONValue
      do {
        json = try JSONParser.parse(bytes)
      } catch {
        throw APXError(.usage, "\(schemaFile) is not valid JSON", file: schemaFile, underlying: error)
      }
      do {
        return try GraphQLSchemaSummary(introspection: json, origin: schemaFile)
      } catch {
        throw APXError(.usage, error.message, hint: error.hint, file: schemaFile)
      }
    }
    return try await GraphQLSchemaSummary.fromSDL(text, origin: schemaFile)
  }

  /// Sends the introspection query to `url` through the call pipeline (headers, retries,
  /// proxies and TLS settings as for a call) and reads the answer.
  static func introspect(
    url: String, session options: HTTPSessionOptions, headers: [HeaderField], timeout: Double?, maxAttempts: Int?,
    environment: [String: String]
  ) async throws -> GraphQLSchemaSummary {
    let target = try AdHocURL(parsing: url)
    guard target.scheme == "http" || target.scheme == "https" else {
      throw APXError(.usage, "--graphql needs an http:// or https:// URL, not \(target.scheme)://")
    }
    var made = try AdHocEndpoint.make(method: "POST", url: target, items: [], hasData: false, form: false)
    made.endpoint.options = .graphql(made.endpoint.options.route, GraphQLOptions(document: GraphQLIntrospection.query))
    var request = CallRequest(
      api: made.api, endpoint: made.endpoint, baseURL: made.baseURL, environmentName: made.environmentName,
      headers: headers + made.headers, timeout: timeout, maxAttemptsOverride: maxAttempts)
    request.targetIsURL = true
    let sink = BodyCollector()
    do {
      try await CallStack.with(CallStack.Options(http: options, environment: environment)) { stack in
        _ = try await stack.executor.call(request, sink: sink)
      }
    } catch var error as APXError where error.status == .graphqlError {
      error.hint = "the server may forbid introspection: give its schema with --schema FILE (SDL or introspection JSON)"
      throw error
    } catch {
      throw Executor.aboutTheURL(error, url: url)
    }
    let json: JSONValue
    do {
      json = try JSONParser.parse(sink.bytes)
    } catch {
      throw APXError(.expectation, "the introspection answer of \(url) is not JSON", underlying: error)
    }
    return try GraphQLSchemaSummary(introspection: json, origin: "the introspection answer of \(url)")
  }
}

/// Keeps a call's body (the last attempt's) instead of printing it.
final class BodyCollector: CallEventSink, @unchecked Sendable {
  private(set) var bytes: [UInt8] = []

  func receive(_ event: CallEvent) throws {
    switch event {
    case .responseHead: bytes.removeAll()
    case .bodyChunk(let chunk): bytes.append(contentsOf: chunk)
    default: break
    }
  }
}
