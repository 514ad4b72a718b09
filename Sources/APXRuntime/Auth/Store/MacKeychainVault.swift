#if canImport(Security)
  public import APXCore
  import Security

  #if canImport(FoundationEssentials)
    import FoundationEssentials
  #else
    import Foundation
  #endif

  /// The macOS login keychain, through the Security framework: generic passwords of service
  /// `apx`, account `API/ENVIRONMENT`. (Not run on Linux; docs/platforms.md lists it.)
  public struct MacKeychainVault: TokenVault {
    public let name = "keychain"

    public init() {}

    private func query(_ account: String?) -> [String: Any] {
      var q: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "apx"]
      if let account { q[kSecAttrAccount as String] = account }
      return q
    }

    public func read(account: String) async throws(APXError) -> [UInt8]? {
      var q = query(account)
      q[kSecReturnData as String] = true
      q[kSecMatchLimit as String] = kSecMatchLimitOne
      var result: CFTypeRef?
      let status = SecItemCopyMatching(q as CFDictionary, &result)
      if status == errSecItemNotFound { return nil }
      guard status == errSecSuccess, let data = result as? Data else { throw failure("read", account, status) }
      return Array(data)
    }

    public func write(account: String, label: String, _ value: [UInt8]) async throws(APXError) {
      let update: [String: Any] = [kSecValueData as String: Data(value), kSecAttrLabel as String: label]
      var status = SecItemUpdate(query(account) as CFDictionary, update as CFDictionary)
      if status == errSecItemNotFound {
        var add = query(account)
        add.merge(update) { $1 }
        status = SecItemAdd(add as CFDictionary, nil)
      }
      guard status == errSecSuccess else { throw failure("store", account, status) }
    }

    public func delete(account: String) async throws(APXError) -> Bool {
      let status = SecItemDelete(query(account) as CFDictionary)
      if status == errSecItemNotFound { return false }
      guard status == errSecSuccess else { throw failure("delete", account, status) }
      return true
    }

    public func all() async throws(APXError) -> [[UInt8]] {
      var q = query(nil)
      q[kSecReturnAttributes as String] = true
      q[kSecReturnData as String] = true
      q[kSecMatchLimit as String] = kSecMatchLimitAll
      var result: CFTypeRef?
      let status = SecItemCopyMatching(q as CFDictionary, &result)
      if status == errSecItemNotFound { return [] }
      guard status == errSecSuccess, let items = result as? [[String: Any]] else {
        throw failure("list", "service apx", status)
      }
      return items.compactMap { ($0[kSecValueData as String] as? Data).map { Array($0) } }
    }

    private func failure(_ step: String, _ account: String, _ status: OSStatus) -> APXError {
      let said = (SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)"
      return APXError(
        .auth, "cannot \(step) the token of \(account) in the login keychain: \(said)",
        hint: "unlock the login keychain, or set APX_TOKEN_STORE=file")
    }
  }
#endif
