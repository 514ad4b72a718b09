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
    return (replaced ?? []) + (try Self.caCertificates(ca))
  }

  /// The same trust as `roots(adding:)`, in the form NIOSSL reads cheapest (REST, SSE, JSON-RPC,
  /// WebSocket), or nil for the system store. BoringSSL reads a path given as the primary trust
  /// root itself: a bundle at once, and a folder of `c_rehash` links (`a1b2c3d4.0`, as
  /// `update-ca-certificates` and `openssl rehash` make them) only for the certificates a
  /// handshake asks for, as OpenSSL and curl read `SSL_CERT_DIR`. Parsing every certificate of
  /// the system's folder and bundle into a list instead cost each https call more CPU than the
  /// rest of the call. Only one path can be left to BoringSSL (NIOSSL reads additional paths
  /// itself, and cannot read a folder), so a hashed folder goes first, the bundle is added, and
  /// other folders and `--cacert` are read here. A folder without such links is read whole, as
  /// `roots(adding:)` reads it.
  func nioTrust(adding caCertificatePath: String?) throws(APXError) -> (
    roots: NIOSSLTrustRoots, additional: [NIOSSLAdditionalTrustRoots]
  )? {
    guard replacesSystemStore || caCertificatePath != nil else { return nil }
    var paths: [String] = []
    var certificates: [NIOSSLCertificate] = []
    if let bundleFile {
      guard Self.holdsPEMCertificate(bundleFile) else {
        throw APXError(
          .usage, "SSL_CERT_FILE names \(bundleFile), which holds no readable PEM certificate",
          hint: "point SSL_CERT_FILE at a PEM bundle of CA certificates, or unset it to use the system's")
      }
      paths.append(bundleFile)
    }
    var hashedFolder: String?
    for directory in directories {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
        throw Self.unreadableFolder(directory)
      }
      if hashedFolder == nil, names.contains(where: Self.isRehashName) {
        hashedFolder = directory
      } else {
        certificates += Self.folderFiles(directory, names: names).flatMap(\.certificates)
      }
    }
    if !directories.isEmpty, bundleFile == nil, hashedFolder == nil, certificates.isEmpty {
      throw Self.noFolderWithCertificates
    }
    if let ca = caCertificatePath { certificates += try Self.caCertificates(ca) }
    if let hashedFolder { paths.insert(hashedFolder, at: 0) }
    guard let primary = paths.first else { return (.certificates(certificates), []) }
    var additional: [NIOSSLAdditionalTrustRoots] = paths.dropFirst().map { .file($0) }
    if !certificates.isEmpty { additional.append(.certificates(certificates)) }
    return (.file(primary), additional)
  }

  /// Whether `name` is a `c_rehash` link's: eight hex digits, a dot, a number.
  static func isRehashName(_ name: String) -> Bool {
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 2 && parts[0].count == 8 && parts[0].allSatisfy(\.isHexDigit)
      && !parts[1].isEmpty && parts[1].allSatisfy(\.isNumber)
  }

  /// Whether the regular file at `path` has a PEM certificate block (not parsed: BoringSSL does).
  static func holdsPEMCertificate(_ path: String) -> Bool {
    guard FileKind.isDirectory(path) == false, let data = FileManager.default.contents(atPath: path) else {
      return false
    }
    return String(decoding: data, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----")
  }

  private static func unreadableFolder(_ directory: String) -> APXError {
    APXError(
      .usage, "SSL_CERT_DIR names \(directory), which is not a readable folder",
      hint: "point SSL_CERT_DIR at a folder of PEM CA certificates, or unset it to use the system's")
  }

  /// The certificates of `--cacert`.
  private static func caCertificates(_ ca: String) throws(APXError) -> [NIOSSLCertificate] {
    guard FileManager.default.isReadableFile(atPath: ca) else {
      throw APXError(.usage, "cannot read \(ca)", hint: "pass the path of a PEM file to --cacert")
    }
    guard let certificates = try? NIOSSLCertificate.fromPEMFile(ca), !certificates.isEmpty else {
      throw APXError(
        .usage, "--cacert \(ca) holds no PEM certificate",
        hint: "pass a file with one or more -----BEGIN CERTIFICATE----- blocks")
    }
    return certificates
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
        throw Self.unreadableFolder(directory)
      }
      files += Self.folderFiles(directory, names: names)
    }
    if files.isEmpty { throw Self.noFolderWithCertificates }
    return files
  }

  /// The files of a folder (named `names`) that hold certificates, each file once however many
  /// links (`a1b2c3d4.0`) name it.
  private static func folderFiles(_ directory: String, names: [String]) -> [(
    path: String, certificates: [NIOSSLCertificate]
  )] {
    var files: [(path: String, certificates: [NIOSSLCertificate])] = []
    var seen = Set<String>()
    for name in names.sorted() {
      let path = directory + "/" + name
      guard seen.insert(PathText.resolvingSymlinks(path)).inserted, let certificates = Self.certificates(in: path)
      else { continue }
      files.append((path, certificates))
    }
    return files
  }

  private static let noFolderWithCertificates = APXError(
    .usage, "SSL_CERT_DIR names no folder with PEM certificates",
    hint: "point SSL_CERT_DIR at a folder of PEM CA certificates, or unset it to use the system's")

  /// The PEM certificates of a regular file (after links), nil when it holds none.
  static func certificates(in path: String) -> [NIOSSLCertificate]? {
    guard FileKind.isDirectory(path) == false,
      let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty
    else { return nil }
    return certificates
  }
}
