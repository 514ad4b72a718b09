/// Decodes a registry's `tls` block (at the top of the file or in an environment).
enum TLSFilesDecoder {
  static let keys = ["ca", "client_cert", "client_key", "client_key_passphrase_env"]

  static func decode(_ value: JSONValue, at p: [JSONPathComponent], _ r: inout DocumentReader) -> TLSFiles? {
    guard let f = r.object(value, at: p, allowed: keys) else { return nil }
    var files = TLSFiles(
      ca: r.optionalString(f, "ca", at: p), clientCertificate: r.optionalString(f, "client_cert", at: p),
      clientKey: r.optionalString(f, "client_key", at: p),
      clientKeyPassphraseEnv: r.optionalString(f, "client_key_passphrase_env", at: p))
    for (key, path) in [("ca", files.ca), ("client_cert", files.clientCertificate), ("client_key", files.clientKey)] {
      if path?.isEmpty == true { r.fail(p + [.key(key)], "\(key) is empty", hint: "give a PEM file's path") }
      if let path, RegistryLoader.hasTemplate(path) {
        r.fail(
          p + [.key(key)], "\(key) holds a ${...} template, and TLS file paths are taken as written",
          hint: "give the path relative to this registry file, or an absolute one")
      }
    }
    if let name = files.clientKeyPassphraseEnv, !isVariableName(name) {
      r.fail(
        p + [.key("client_key_passphrase_env")],
        "client_key_passphrase_env \"\(name)\" is not an environment variable name",
        hint: "name the variable that holds the passphrase, e.g. \"API_KEY_PASSPHRASE\"; never the passphrase itself")
      files.clientKeyPassphraseEnv = nil
    }
    return files
  }

  /// Letters, digits and `_`, not starting with a digit.
  static func isVariableName(_ s: String) -> Bool {
    guard let first = s.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
    return s.utf8.allSatisfy { b in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_")
    }
  }
}
