import APXCore
import APXGRPCMock
import APXMock
import APXRuntime

/// `apx run --mock`: the recipe's APIs served by `apx mock` in this process, on free loopback
/// ports, for the duration of the run.
enum MockBackend {
  /// Runs `body` with the demo backend's addresses (`--demo`) or each API's mock base URL (`--mock`).
  static func withOptionalBackend<T: Sendable>(
    demo: Bool, mock: Bool, apis: [APIDefinition], steps: [RecipeStep], context: Context,
    _ body: (DemoAddresses?, MockedAddresses) async throws -> T
  ) async throws -> T {
    try await withOptionalMock(mock, apis: apis, steps: steps, context: context) { mocked in
      try await DemoBackend.withOptionalDemo(demo) { try await body($0, mocked) }
    }
  }

  /// Where the mock serves each API: its HTTP base URL, and its gRPC one for an API with gRPC endpoints.
  struct MockedAddresses: Sendable {
    var http: [String: String] = [:]
    var grpc: [String: String] = [:]
  }

  /// Runs `body` with each API's mock addresses (none when `enabled` is false), then stops the mock.
  static func withOptionalMock<T: Sendable>(
    _ enabled: Bool, apis: [APIDefinition], steps: [RecipeStep], context: Context,
    _ body: (MockedAddresses) async throws -> T
  ) async throws -> T {
    guard enabled else { return try await body(MockedAddresses()) }
    let server: MockServer
    do {
      server = try await MockServer.start(
        apis: try apis.map { api throws(APXError) in try GraphQLDocuments.resolvingDocuments(api) },
        options: MockOptions()
      ) { line in context.warn(line) }
    } catch {
      throw APXError(.network, "apx mock could not listen on 127.0.0.1", underlying: error)
    }
    var addresses = MockedAddresses()
    for (api, url) in server.addresses { addresses.http[api] = url }
    let grpc: GRPCMockServer?
    do {
      grpc = try await MockGRPCServing.start(
        apis: apis, host: "127.0.0.1", port: 0, seed: 0, faults: MockFaults(), server: server, context: context)
    } catch {
      await server.stop()
      throw error
    }
    if let grpc {
      for api in apis where api.endpoints.contains(where: { !$0.kind.capabilities.servedOverHTTP }) {
        addresses.grpc[api.name] = "grpc://127.0.0.1:\(grpc.port)"
      }
    }
    do {
      let result = try await body(addresses)
      await grpc?.stop()
      await server.stop()
      return result
    } catch {
      await grpc?.stop()
      await server.stop()
      throw error
    }
  }

  /// `api` with the token URLs of its OAuth2 auths pointed at the token endpoint the mock at
  /// `baseURL` serves for them (the path of the URL, absolute or not), so that the run's tokens
  /// come from the mock and not from the real authorization server. A templated token URL stays.
  static func pointingTokenURLs(_ api: APIDefinition, at baseURL: String) -> APIDefinition {
    var api = api
    api.auth = api.auth.map { pointingTokenURL($0, at: baseURL) }
    for i in api.endpoints.indices {
      api.endpoints[i].auth = api.endpoints[i].auth.map { pointingTokenURL($0, at: baseURL) }
    }
    return api
  }

  private static func pointingTokenURL(_ auth: AuthConfig, at baseURL: String) -> AuthConfig {
    switch auth {
    case .oauth2ClientCredentials(var config):
      guard let path = TokenEndpoint.path(of: config.tokenURL) else { return auth }
      config.tokenURL = baseURL + path
      return .oauth2ClientCredentials(config)
    case .subprotocol(let prefix, let token):
      return .subprotocol(prefix: prefix, token: pointingTokenURL(token, at: baseURL))
    default: return auth
    }
  }
}
