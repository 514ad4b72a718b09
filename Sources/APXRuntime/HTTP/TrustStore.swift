import APXCore
import NIOSSL

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The CA certificates apx trusts, by one rule for REST, SSE, JSON-RPC, WebSocket and gRPC
/// (`roots(adding:)`): the system's store, unless `--cacert`, `SSL_CERT_FILE` or `SSL_CERT_DIR`
/// names certificates (as corporate networks do for their own CA); then exactly those, together.
public struct TrustStore: Sendable, Hashable {
  /// A PEM bundle to trust instead of the system store (`SSL_CERT_FILE`).
  public var bundleFile: String?
  /// Folders of PEM certificates to trust instead of the system store (`SSL_CERT_DIR`,
  /// colon-separated as OpenSSL reads it).
  public var directories: [String]

  /// Trust settings; with neither a bundle nor a folder, the system store.
  public init(bundleFile: String? = nil, directories: [String] = []) {
    self.bundleFile = bundleFile
    self.directories = directories
  }

  /// The trust that `SSL_CERT_FILE` and `SSL_CERT_DIR` in `environment` ask for (empty values ignored).
  public static func from(environment: [String: String]) -> TrustStore {
    TrustStore(
      bundleFile: environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 },
      directories: (environment["SSL_CERT_DIR"] ?? "").split(separator: ":").map(String.init))
  }

  /// Whether the system store is replaced.
  public var replacesSystemStore: Bool { bundleFile != nil || !directories.isEmpty }

  /// The trust roots of every TLS connection apx makes: nil for the system store, else the
  /// certificates of `SSL_CERT_FILE`, `SSL_CERT_DIR` and `--cacert` together, and none of the
  /// system's. A list is verified by BoringSSL on every platform; only the system store goes to
  /// the platform's verifier (NIOSSL's rule on macOS), so a certificate passes or fails alike
  /// for every protocol.
  func roots(adding caCertificatePath: String?) throws(APXError) -> [NIOSSLCertificate]? {
    let replaced = try load()?.flatMap(\.certificates)
    guard let ca = caCertificatePath else { return replaced }
    guard FileManager.default.isReadableFile(atPath: ca) else {
      throw APXError(.usage, "cannot read \(ca)", hint: "pass the path of a PEM file to --cacert")
    }
    guard let certificates = try? NIOSSLCertificate.fromPEMFile(ca), !certificates.isEmpty else {
      throw APXError(
        .usage, "--cacert \(ca) holds no PEM certificate",
        hint: "pass a file with one or more -----BEGIN CERTIFICATE----- blocks")
    }
    return (replaced ?? []) + certificates
  }

  /// The PEM files to trust and their certificates: the bundle, then every file in the folders
  /// that holds a certificate (hashed links such as `a1b2c3d4.0` and their targets counted
  /// once). Nil when the system store applies.
  func load() throws(APXError) -> [(path: String, certificates: [NIOSSLCertificate])]? {
    guard replacesSystemStore else { return nil }
    var files: [(path: String, certificates: [NIOSSLCertificate])] = []
    if let bundleFile {
      guard let certificates = Self.certificates(in: bundleFile) else {
        throw APXError(
          .usage, "SSL_CERT_FILE names \(bundleFile), which holds no readable PEM certificate",
          hint: "point SSL_CERT_FILE at a PEM bundle of CA certificates, or unset it to use the system's")
      }
      files.append((bundleFile, certificates))
    }
    for directory in directories {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
        throw APXError(
          .usage, "SSL_CERT_DIR names \(directory), which is not a readable folder",
          hint: "point SSL_CERT_DIR at a folder of PEM CA certificates, or unset it to use the system's")
      }
      var seen = Set<String>()
      for name in names.sorted() {
        let path = directory + "/" + name
        guard seen.insert(PathText.resolvingSymlinks(path)).inserted,
          let certificates = Self.certificates(in: path)
        else { continue }
        files.append((path, certificates))
      }
    }
    if files.isEmpty {
      throw APXError(
        .usage, "SSL_CERT_DIR names no folder with PEM certificates",
        hint: "point SSL_CERT_DIR at a folder of PEM CA certificates, or unset it to use the system's")
    }
    return files
  }

  /// The PEM certificates of a regular file (after links), nil when it holds none.
  static func certificates(in path: String) -> [NIOSSLCertificate]? {
    guard FileKind.isDirectory(path) == false,
      let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty
    else { return nil }
    return certificates
  }
}
