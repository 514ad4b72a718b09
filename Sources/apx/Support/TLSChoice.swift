import APXCore
import APXRuntime

/// The TLS files of a command: `--cacert`, `--cert` and `--key` where given, else the registry's
/// `tls` block (`APIDefinition.tlsFiles(environment:)`), key by key.
struct TLSChoice {
  /// Trusted besides the system store.
  var ca: String?
  /// The client certificate, with its key's passphrase when the registry names one.
  var certificate: ClientCertificate?

  /// Exit 2 when only one of certificate and key is known, or the passphrase's variable is unset.
  init(flags: GlobalOptions, registry: TLSFiles?, environment: [String: String]) throws(APXError) {
    // A registry path may start with `~/` (the shell expands the flags' own).
    func home(_ path: String?) -> String? {
      guard let path, path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty else { return path }
      return home + path.dropFirst()
    }
    ca = flags.cacert ?? home(registry?.ca)
    let certificatePath = flags.cert ?? home(registry?.clientCertificate)
    let keyPath = flags.key ?? home(registry?.clientKey)
    switch (certificatePath, keyPath) {
    case (nil, nil):
      if let variable = registry?.clientKeyPassphraseEnv {
        throw APXError(
          .usage, "the registry's tls block names a key passphrase ($\(variable)) but no client key",
          hint:
            "add client_cert and client_key to the block, pass --cert and --key, or remove client_key_passphrase_env")
      }
      certificate = nil
    case (let cert?, let key?):
      var passphrase: ClientKeyPassphrase?
      if let variable = registry?.clientKeyPassphraseEnv {
        guard let value = environment[variable], !value.isEmpty else {
          throw APXError(
            .usage, "the registry's tls block takes the client key's passphrase from $\(variable), which is not set",
            hint: "export \(variable) with the passphrase of \(key)")
        }
        passphrase = ClientKeyPassphrase(variable: variable, value: value)
      }
      certificate = ClientCertificate(certificatePath: cert, keyPath: key, passphrase: passphrase)
    case (_?, nil), (nil, _?):
      throw APXError(
        .usage, "a client certificate needs both its certificate and its key",
        hint: "give --cert and --key, or client_cert and client_key in the registry's \"tls\" block")
    }
  }
}
