import APXDemoServer
import GRPCCore
import GRPCNIOTransportHTTP2
import Testing

@Suite("Demo gRPC server inside DemoServer")
struct DemoGRPCFacadeTests {
  @Test func oauthTokenFromTheHTTPSideWorksForGRPC() async throws {
    try await DemoHTTPHarness.run(DemoServerOptions(requireAuth: true)) { demo in
      #expect(demo.server.grpcPort > 0)
      let form = [("Content-Type", "application/x-www-form-urlencoded")]
      let reply = try await demo.send(
        .POST, "/oauth/token", headers: form,
        body: "grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret"
      )
      let token = try #require(reply.json["access_token"] as? String)

      let transport = try HTTP2ClientTransport.Posix(
        target: .ipv4(address: "127.0.0.1", port: demo.server.grpcPort),
        transportSecurity: .plaintext
      )
      try await withGRPCClient(transport: transport) { client in
        let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
        let request = Classnotes_V1_GetLessonRequest.with { $0.id = "les_0001" }
        let refused = await DemoGRPCHarness.rpcError { _ = try await api.getLesson(request) }
        #expect(refused?.code == .unauthenticated)

        let lesson = try await api.getLesson(
          request,
          metadata: ["authorization": .string("Bearer \(token)")]
        )
        #expect(lesson.id == "les_0001")
      }
    }
  }
}
