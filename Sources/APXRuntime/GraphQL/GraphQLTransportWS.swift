import APXCore
import APXGraphQL

/// The `graphql-transport-ws` protocol on one WebSocket connection: `connection_init` (with the
/// call's credentials in its payload), `connection_ack`, then one `subscribe` whose `next`
/// messages carry execution results, until `complete`. The server's `ping` is answered with
/// `pong`. One value per subscription; the WebSocket transport feeds it each text message.
struct GraphQLTransportWS: Sendable {
  /// The subprotocol offered in the handshake.
  static let subprotocol = "graphql-transport-ws"
  /// The one subscription's id.
  static let subscriptionID = "1"

  /// `{"query", "variables", "operationName"}`, the `subscribe` payload.
  let request: JSONValue
  /// `API.ENDPOINT` or "the GraphQL subscription", for messages.
  let name: String

  /// What the transport does with one message from the server.
  enum Step: Sendable {
    /// Send this text message.
    case reply(String)
    /// An execution result.
    case result(GraphQLAnswer)
    /// The server ended the subscription.
    case complete
    /// Nothing to do (another id's message, a `pong`).
    case ignore
  }

  /// `connection_init`, its payload the credentials as headers (`{"Authorization": "Bearer ..."}`).
  func initMessage(credentials: [HeaderField]) -> String {
    var message = [JSONMember("type", .string("connection_init"))]
    if !credentials.isEmpty {
      message.append(JSONMember("payload", .object(credentials.map { JSONMember($0.name, .string($0.value)) })))
    }
    return JSONValue.object(message).compactJSON
  }

  var subscribeMessage: String {
    JSONValue.object([
      JSONMember("id", .string(Self.subscriptionID)), JSONMember("type", .string("subscribe")),
      JSONMember("payload", request),
    ]).compactJSON
  }

  /// The step for one text message; a message outside the protocol, or an `error` message
  /// (the server refused the subscription), throws.
  func step(_ bytes: [UInt8]) throws(APXError) -> Step {
    let parsed: JSONValue?
    do {
      parsed = try JSONParser.parse(bytes)
    } catch  where error.tooDeep {
      throw APXError(
        .expectation,
        "\(name): the server sent a message nested deeper than \(JSONParser.maxDepth) levels, the most apx reads",
        hint: "no real execution result nests that deep: check the server", cause: error.description)
    } catch {
      parsed = nil
    }
    guard case .object(let members)? = parsed,
      case .string(let type)? = members.first(where: { $0.key == "type" })?.value
    else {
      throw APXError(
        .expectation, "\(name): the server sent a message that is not graphql-transport-ws",
        hint: "check that the server speaks graphql-transport-ws, or try --graphql-transport sse")
    }
    let id = members.first { $0.key == "id" }?.value
    let payload = members.first { $0.key == "payload" }?.value
    switch type {
    case "connection_ack": return .reply(subscribeMessage)
    case "ping": return .reply(JSONValue.object([JSONMember("type", .string("pong"))]).compactJSON)
    case "pong": return .ignore
    case "next":
      guard id == .string(Self.subscriptionID) else { return .ignore }
      let answer: GraphQLAnswer
      do {
        answer = try GraphQLAnswer(payload ?? .null)
      } catch {
        throw APXError(.expectation, "\(name): a \"next\" message holds no execution result", cause: error.message)
      }
      return .result(answer)
    case "error":
      guard id == .string(Self.subscriptionID) else { return .ignore }
      let errors = Self.errors(payload)
      throw APXError(
        .graphqlError, "\(name): the server refused the subscription",
        hint: "check the document and its variables (apx describe URL --graphql Subscription.FIELD)",
        cause: errors.isEmpty ? nil : GraphQLAnswer.listed(errors))
    case "complete":
      return id == .string(Self.subscriptionID) ? .complete : .ignore
    default:
      throw APXError(
        .expectation, "\(name): the server sent a graphql-transport-ws message of unknown type \"\(type)\"")
    }
  }

  /// An `error` message's payload: a list of GraphQL errors.
  private static func errors(_ payload: JSONValue?) -> [GraphQLAnswer.Failure] {
    guard let payload, let answer = try? GraphQLAnswer(.object([JSONMember("errors", payload)])) else { return [] }
    return answer.errors
  }

  /// The credentials a server reads from `connection_init`: the plan's `Authorization` header,
  /// and an API key's header.
  static func credentials(in plan: HTTPRequestPlan, auth: AuthConfig) -> [HeaderField] {
    var names = ["authorization"]
    if case .apiKey(.header, let name, _) = auth { names.append(name.lowercased()) }
    return plan.headers.filter { names.contains($0.name.lowercased()) }
  }
}
