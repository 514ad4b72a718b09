import APXCore
import Testing

@testable import APXRuntime

@Suite("gRPC building blocks: targets, reflection wire format, retry policy, documents")
struct GRPCUnitTests {
  @Test func targetsParse() throws {
    #expect(
      try GRPCTarget(parsing: "grpc://127.0.0.1:50051") == GRPCTarget(host: "127.0.0.1", port: 50051, useTLS: false))
    #expect(
      try GRPCTarget(parsing: "grpcs://api.example.com") == GRPCTarget(host: "api.example.com", port: 443, useTLS: true)
    )
    #expect(try GRPCTarget(parsing: "localhost:9000/") == GRPCTarget(host: "localhost", port: 9000, useTLS: false))
    #expect(try GRPCTarget(parsing: "grpc://[::1]:7000") == GRPCTarget(host: "::1", port: 7000, useTLS: false))
    #expect(try GRPCTarget(parsing: "grpc://[::1]:7000").description == "grpc://[::1]:7000")
    for bad in ["http://x:1", "grpc://x", "grpc://x:0", "grpc://x:99999", "grpc://:80", "grpc://x:80/path"] {
      #expect(throws: APXError.self, "\(bad)") { try GRPCTarget(parsing: bad) }
    }
  }

  @Test func reflectionRequestsEncodeAsProtobuf() {
    // field 4 (file_containing_symbol), length 3, "a.B"
    #expect(ReflectionWire.encode(.fileContainingSymbol("a.B")) == [0x22, 3, 0x61, 0x2E, 0x42])
    #expect(ReflectionWire.encode(.listServices) == [0x3A, 0])
    #expect(ReflectionWire.encode(.fileByFilename("x")) == [0x1A, 1, 0x78])
  }

  @Test func reflectionResponsesDecode() throws {
    // list_services_response { service { name: "s.S" } } with a valid_host string first.
    let services: [UInt8] = [0x0A, 1, 0x68, 0x32, 7, 0x0A, 5, 0x0A, 3, 0x73, 0x2E, 0x53]
    guard case .services(let names) = try ReflectionWire.decode(services) else {
      Issue.record("not a service list")
      return
    }
    #expect(names == ["s.S"])
    // error_response { error_code: 5, error_message: "no" }
    let error: [UInt8] = [0x3A, 6, 0x08, 5, 0x12, 2, 0x6E, 0x6F]
    guard case .error(let code, let message) = try ReflectionWire.decode(error) else {
      Issue.record("not an error")
      return
    }
    #expect(code == 5 && message == "no")
    #expect(throws: APXError.self) { try ReflectionWire.decode([0x22, 9, 1]) }
    #expect(throws: APXError.self) { try ReflectionWire.decode([0xFF]) }
  }

  @Test func fileDescriptorHeaderReadsNameAndImports() {
    // name: "a.proto", package: "p", dependency: "b.proto"
    let bytes: [UInt8] = [0x0A, 7] + Array("a.proto".utf8) + [0x12, 1, 0x70, 0x1A, 7] + Array("b.proto".utf8)
    let header = FileDescriptorHeader(bytes: bytes)
    #expect(header.name == "a.proto")
    #expect(header.dependencies == ["b.proto"])
  }

  @Test func grpcRetryDecisionsUseStatusCodesAndAllowManyAttempts() throws {
    // apx's own retry layer decides: no cap at GRPCCore's 5 attempts.
    var policy = try APXCore.RetryPolicy(maxAttempts: 10, initialDelay: 0, maxDelay: 0)
    policy.retryOnGRPCCodes = [14]
    var random = SystemRandomNumberGenerator()
    #expect(
      policy.decide(afterAttempt: 7, outcome: .grpcStatus(14), retrySafe: true, random: &random) == .retry(after: 0))
    #expect(
      policy.decide(afterAttempt: 1, outcome: .grpcStatus(5), retrySafe: true, random: &random)
        == .giveUp(.grpcStatusNotRetryable(5)))
    #expect(
      policy.decide(afterAttempt: 10, outcome: .grpcStatus(14), retrySafe: true, random: &random)
        == .giveUp(.attemptsExhausted(maxAttempts: 10)))
  }

  @Test func unknownRetryCodeNamesAreRegistryErrors() {
    #expect(throws: APXError.self) { try GRPCStatusName.statusCodes(["UNAVAILABEL"], file: "x.json") }
    #expect(throws: APXError.self) { try GRPCStatusName.statusCodes(["OK"], file: "x.json") }
    #expect((try? GRPCStatusName.statusCodes(["unavailable", "ABORTED"], file: "x.json"))?.count == 2)
  }

  @Test func statusNamesRoundTrip() {
    for code in 0...16 { #expect(GRPCStatusName.code(of: GRPCStatusName.name(of: code)) == code) }
    #expect(GRPCStatusName.name(of: 99) == "CODE_99")
  }

  @Test func documentsSplitArraysNDJSONAndPrettyJSON() throws {
    #expect(try GRPCRequestSource.documents(in: Array("[{\"a\":1},{\"a\":2}]".utf8), origin: "-d").count == 2)
    #expect(try GRPCRequestSource.documents(in: Array("{\"a\":1}\n\n{\"a\":2}\n".utf8), origin: "-d").count == 2)
    #expect(try GRPCRequestSource.documents(in: Array("{\n  \"a\": 1\n}\n{\"a\": 2}".utf8), origin: "-d").count == 2)
    #expect(throws: APXError.self) {
      try GRPCRequestSource.documents(in: Array("{\"a\":1}\n{\"a\":".utf8), origin: "-d")
    }
  }

  @Test func settingsRejectHalfAnMTLSPair() {
    #expect(throws: APXError.self) { try GRPCSettings(clientCertificatePath: "c.pem").validate() }
    #expect(throws: APXError.self) { try GRPCSettings(maxMessageSize: 0).validate() }
  }

  @Test func statusDetailsDecodeWithoutThePoolKnowingTheTypes() {
    // google.rpc.Status { code: 8, message: "q", details: [Any { type_url: "t/x.Y", value: 0x01 }] }
    let any: [UInt8] = [0x0A, 5] + Array("t/x.Y".utf8) + [0x12, 1, 0x01]
    let bytes: [UInt8] = [0x08, 8, 0x12, 1, 0x71, 0x1A, UInt8(any.count)] + any
    let json = GRPCStatusDetails.json(bytes, pool: nil)
    #expect(json["code"] == .number("8"))
    #expect(json["message"] == .string("q"))
    #expect(json["details"]?[0]?["@type"] == .string("t/x.Y"))
    #expect(json["details"]?[0]?["value"] == .string("AQ=="))
  }
}
