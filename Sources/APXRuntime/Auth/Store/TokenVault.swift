public import APXCore

/// Where the token store keeps its secrets when not in its 0600 files: the operating system's
/// keychain. One item per API and environment, service `apx`, account `API/ENVIRONMENT`; the
/// value is the stored token's JSON. Lock files stay in the token folder either way, so the
/// single-flight refresh across processes holds whichever vault is used.
public protocol TokenVault: Sendable {
  /// What `apx auth status` names: `secret-service`, `keychain`.
  var name: String { get }
  /// The item's bytes, or nil when there is none.
  func read(account: String) async throws(APXError) -> [UInt8]?
  /// Creates or replaces the item.
  func write(account: String, label: String, _ value: [UInt8]) async throws(APXError)
  /// Deletes the item; true when there was one.
  func delete(account: String) async throws(APXError) -> Bool
  /// The value of every item of service `apx` (each names its API and environment).
  func all() async throws(APXError) -> [[UInt8]]
}

/// Which store holds tokens: `APX_TOKEN_STORE=file|keychain`, else the keychain where there is
/// one (macOS; on Linux a session bus and `secret-tool`), else the files.
public enum TokenStoreChoice: Sendable, Equatable {
  /// The 0600 files in the token folder.
  case file
  /// The OS keychain; `explicit` when asked for, so a keychain that fails is an error rather
  /// than a fall back to the files.
  case keychain(explicit: Bool)

  /// The choice the environment makes.
  /// - Throws: exit 2 for an `APX_TOKEN_STORE` that is neither `file` nor `keychain`.
  public static func from(environment: [String: String]) throws(APXError) -> TokenStoreChoice {
    switch environment["APX_TOKEN_STORE"] ?? "" {
    case "file": return .file
    case "keychain": return .keychain(explicit: true)
    case "": return DefaultVault.available(environment: environment) ? .keychain(explicit: false) : .file
    case let other:
      throw APXError(
        .usage, "APX_TOKEN_STORE is \"\(other)\", and apx knows file and keychain",
        hint: "set APX_TOKEN_STORE=file (the 0600 files) or APX_TOKEN_STORE=keychain, or unset it")
    }
  }
}

/// This platform's keychain.
public enum DefaultVault {
  /// Whether this machine has one apx can use, judged without starting anything.
  public static func available(environment: [String: String]) -> Bool {
    #if canImport(Security)
      return true
    #else
      return SecretToolVault.available(environment: environment)
    #endif
  }

  /// The vault, or nil where there is none (`APX_TOKEN_STORE=keychain` then says why).
  public static func make(environment: [String: String]) -> (any TokenVault)? {
    #if canImport(Security)
      return MacKeychainVault()
    #else
      return SecretToolVault.available(environment: environment) ? SecretToolVault(environment: environment) : nil
    #endif
  }

  /// Why there is none, for the error of `APX_TOKEN_STORE=keychain`.
  public static var missing: String {
    #if canImport(Security)
      "the login keychain cannot be used"
    #else
      "the Secret Service needs libsecret's secret-tool on PATH (apt install libsecret-tools) and a session bus "
        + "(DBUS_SESSION_BUS_ADDRESS), with GNOME Keyring or KWallet on it"
    #endif
  }
}
