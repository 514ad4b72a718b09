import APXCore
import NIOCore
import Synchronization

@testable import APXRuntime

/// A transport that answers from a script instead of the network, for unit tests of the
/// executor's layers (retries, budgets, auth refresh): each `send` takes the next step, and
/// records what the executor handed it.
final class FakeTransport: Transport {
  /// What one `send` does.
  enum Step: Sendable {
    /// Succeeds with this HTTP status.
    case answer(Int)
    /// Fails as a transport would, with this outcome for the retry layer.
    case fail(RetryOutcome?, retryAfter: String? = nil)
    /// Fails because the server refused the presented credentials (HTTP 401).
    case refuseCredentials
  }

  /// One resolved attempt: the token the credentials gave.
  struct Attempt: Sendable {
    let token: String?
  }

  /// What the executor handed to one `send`.
  struct Sent: Sendable {
    let number: Int
    let token: String?
    let deadline: NIODeadline
  }

  private let state: Mutex<(steps: [Step], sent: [Sent], resolved: Int)>
  let safety: AttemptSafety

  init(_ steps: [Step], safety: AttemptSafety = .safe) {
    state = Mutex((steps, [], 0))
    self.safety = safety
  }

  /// Every `send`, in order.
  var sent: [Sent] { state.withLock { $0.sent } }
  /// How many times the executor resolved an attempt (once, plus once per credential refresh).
  var resolved: Int { state.withLock { $0.resolved } }

  func resolve(_ request: CallRequest, credentials: Credentials) async throws -> Attempt {
    var mask = SecretMask()
    let headers = try await credentials.metadata(mask: &mask)
    state.withLock { $0.resolved += 1 }
    let token = headers.first { $0.name == "authorization" }?.value.replacing("Bearer ", with: "")
    return Attempt(token: token)
  }

  func retrySafety(of attempt: Attempt) -> AttemptSafety { safety }

  func presentedToken(in attempt: Attempt) -> String? { attempt.token }

  func send(_ attempt: Attempt, context: AttemptContext, sink: any CallEventSink) async throws -> CallOutcome {
    let step: Step = state.withLock {
      $0.sent.append(Sent(number: context.number, token: attempt.token, deadline: context.deadline))
      return $0.steps.isEmpty ? .fail(nil) : $0.steps.removeFirst()
    }
    switch step {
    case .answer(let status):
      return CallOutcome(status: status)
    case .fail(let outcome, let retryAfter):
      throw AttemptFailure(APXError(.httpServerError, "scripted failure"), outcome: outcome, retryAfter: retryAfter)
    case .refuseCredentials:
      throw AttemptFailure(APXError(.auth, "answered 401"), outcome: .status(401), credentialsRejected: true)
    }
  }
}

/// Tokens numbered in the order they are handed out (`t1`, `t2`, ...), counted.
final class CountingTokens: TokenSource {
  private let issued = Mutex(0)

  var count: Int { issued.withLock { $0 } }

  func token(
    for auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String, forceRefresh: Bool
  ) async throws -> String {
    let n = issued.withLock {
      $0 += 1
      return $0
    }
    return "t\(n)"
  }
}
