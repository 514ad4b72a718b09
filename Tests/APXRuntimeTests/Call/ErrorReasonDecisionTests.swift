import APXCore
import Foundation
import GRPCCore
import NIOCore
import Testing

@testable import APXRuntime

/// Code that decides on one of apx's own failures asks its `reason`: the same text with another
/// reason is decided otherwise, and other text with the reason is decided the same.
@Suite("Error reasons decide, not error text")
struct ErrorReasonDecisionTests {
  static let refused = NetworkErrorMapper.connectionFailure("http://127.0.0.1:9", cause: nil)

  @Test func aRefusedConnectionToATypedURLIsToldAboutTheURL() throws {
    let error = try #require(Executor.aboutTheURL(Self.refused, url: "http://127.0.0.1:9/x") as? APXError)
    #expect(error.hint?.hasPrefix("nothing accepted the connection at http://127.0.0.1:9") == true)
    #expect(error.hint?.contains("(https:// if the server speaks TLS)") == true)
  }

  @Test func theRefusedHintTextWithoutTheReasonIsLeftAlone() throws {
    var lookalike = Self.refused
    lookalike.reason = .unclassified
    let error = try #require(Executor.aboutTheURL(lookalike, url: "http://127.0.0.1:9/x") as? APXError)
    #expect(error.hint == Self.refused.hint)
  }

  @Test func theReasonDecidesWhateverTheHintSays() throws {
    let refused = APXError(.network, "x", hint: "a hint of other words", reason: .connectionRefused)
    let error = try #require(Executor.aboutTheURL(refused, url: "grpc://127.0.0.1:9") as? APXError)
    #expect(error.hint?.hasPrefix("nothing accepted the connection at grpc://127.0.0.1:9") == true)
    #expect(error.hint?.contains("grpcs://") == true)
  }

  @Test func whatTheRetryLayerAddedStays() throws {
    let gaveUp = Executor.gaveUp(Self.refused, reason: .notSafeToRetry, attempts: 1, safety: .safe)
    let error = try #require(Executor.aboutTheURL(gaveUp, url: "http://127.0.0.1:9") as? APXError)
    #expect(error.hint?.hasPrefix("nothing accepted the connection") == true)
    #expect(error.retryVerdict == "not retried: \(RetryGiveUpReason.notSafeToRetry)")
    #expect(error.description.hasSuffix("; not retried: \(RetryGiveUpReason.notSafeToRetry)"))
  }

  @Test func aRefusedGRPCConnectionIsToldFromItsCauseNotItsText() {
    let refused = RPCError(
      code: .unavailable, message: "Could not establish a connection",
      cause: RPCError(code: .unavailable, message: "x", cause: IOError(errnoCode: ECONNREFUSED, reason: "connect")))
    #expect(GRPCFailure.connectionRefused(refused))
    let lookalike = RPCError(code: .unavailable, message: "connection refused (ECONNREFUSED)")
    #expect(!GRPCFailure.connectionRefused(lookalike))
    let reset = RPCError(code: .unavailable, message: "x", cause: IOError(errnoCode: ECONNRESET, reason: "read"))
    #expect(!GRPCFailure.connectionRefused(reset))
  }

  @Test func anUnresolvedHostOfATypedURLNamesTheURL() throws {
    let unresolved = NetworkErrorMapper.unresolvedHost("nowhere.invalid", cause: "no such name")
    #expect(unresolved.reason == .hostNotFound)
    let error = try #require(Executor.aboutTheURL(unresolved, url: "http://nowhere.invalid") as? APXError)
    #expect(error.hint?.contains("the host in the URL") == true)
    var lookalike = unresolved
    lookalike.reason = .unclassified
    let left = try #require(Executor.aboutTheURL(lookalike, url: "http://nowhere.invalid") as? APXError)
    #expect(left.hint == unresolved.hint)
  }

  @Test func aPageFailureNamesItsRequestUnlessTheReasonSaysTheMessageDoes() {
    let endpoint = Endpoint(name: "list", options: .rest(HTTPRoute(path: "/books")))
    let request = CallRequest(
      api: APIDefinition(name: "books", endpoints: [endpoint], sourceFile: "books.json"), endpoint: endpoint,
      baseURL: "http://127.0.0.1:9", environmentName: "demo")
    let collector = PageCollector(page: 2, downstream: NoSink())
    let message = "GET /books answered 500 Internal Server Error"
    let status = APXError(.httpServerError, message, reason: .unexpectedStatus(500))
    #expect(
      Paginator.naming(page: 2, collector: collector, request: request, status)
        == "page 2 failed: " + message)
    let other = APXError(.httpServerError, message)
    #expect(
      Paginator.naming(page: 2, collector: collector, request: request, other)
        == "page 2 (GET http://127.0.0.1:9) failed: " + message)
  }

  @Test func aStepFailureIsNamedOnceAndOnlyOnce() {
    let step = RecipeStep(id: "get", call: "books.get")
    let prefixed = APXError(.network, "step \"get\" (books.get): refused")
    // Text that looks named already is still named: only a `StepFailure` was.
    #expect(
      RecipeRunner.apxError(prefixed, step: step).message
        == "step \"get\" (books.get): step \"get\" (books.get): refused")
    let mapped = RecipeRunner.apxError(APXError(.network, "refused"), step: step)
    #expect(mapped.message == "step \"get\" (books.get): refused")
    #expect(RecipeRunner.apxError(StepFailure(error: mapped), step: step).message == mapped.message)
  }
}

private final class NoSink: CallEventSink {
  func receive(_ event: CallEvent) throws {}
}
