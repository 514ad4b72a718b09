/// What a user's login shows and opens: the front end's side of `apx auth login`, so the
/// flows print nothing themselves. Calls and recipes have none, so they never open a browser.
public struct LoginInteraction: Sendable {
  /// Given the authorization URL: show it, and open the browser unless told not to.
  public var authorize: @Sendable (String) -> Void
  /// Given the device flow's code and page: show them.
  public var deviceCode: @Sendable (DeviceCodePrompt) -> Void
  /// Told before each poll of the device flow, with the whole seconds left (a countdown).
  public var waiting: @Sendable (Int) -> Void
  /// Seconds to wait for the browser to come back to the redirect listener.
  public var redirectTimeout: Double

  public init(
    authorize: @escaping @Sendable (String) -> Void, deviceCode: @escaping @Sendable (DeviceCodePrompt) -> Void,
    waiting: @escaping @Sendable (Int) -> Void = { _ in }, redirectTimeout: Double = 300
  ) {
    self.authorize = authorize
    self.deviceCode = deviceCode
    self.waiting = waiting
    self.redirectTimeout = redirectTimeout
  }
}

/// The device flow's instructions for the user (RFC 8628 §3.3).
public struct DeviceCodePrompt: Sendable, Hashable {
  /// The code to enter: shown to the user, short-lived, not a credential on its own.
  public var userCode: String
  /// The page where it is entered.
  public var verificationURI: String
  /// The page with the code filled in, when the server gives one.
  public var verificationURIComplete: String?
  /// Seconds until the code expires.
  public var expiresIn: Int
}
