public import APXCore

/// An API description with every file its `$ref`s reach, each read once, its
/// references rewritten by `ReferenceCanonicalizer` so that `ReferenceResolver`
/// follows them from any file.
public struct DescriptionSet: Sendable {
  /// The root document.
  public var root: JSONValue
  public var rootLocation: DocumentLocation
  /// The other files, by `DocumentLocation.key`.
  public var documents: [String: JSONValue]

  /// A description in one file.
  public init(root: JSONValue, location: DocumentLocation) {
    self.root = root
    self.rootLocation = location
    self.documents = [:]
  }

  /// Files read for one description at most (a real one had about 3,000).
  public static let maxFiles = 20_000
  /// Bytes read for one description at most, all its files together.
  public static let maxTotalBytes = 256 << 20

  /// Reads the files a description refers to; `read` brings a file's bytes (the caller's
  /// I/O: files, and URLs where allowed). Every reference into another file must resolve:
  /// a missing file, a URL that is not allowed, or a fragment that is not there is an
  /// `invalidDefinition` error (exit 3) naming the referring file, its line, and the reference.
  ///
  /// - Parameters:
  ///   - rootBytes: the root document's bytes.
  ///   - allowRemote: follow references into http(s) URLs (always allowed when the root is one).
  public static func load(
    rootBytes: [UInt8], location: DocumentLocation, shown: String, allowRemote: Bool,
    read: (DocumentLocation) async throws(APXError) -> [UInt8]
  ) async throws(APXError) -> DescriptionSet {
    let parsed = try DescriptionReader.read(rootBytes, source: shown)
    let ids = Set(ReferenceResolver.identifiers(in: parsed).keys)
    var canonicalizer = ReferenceCanonicalizer(location: location, root: location, ids: ids)
    var set = DescriptionSet(root: canonicalizer.canonicalize(parsed), location: location)
    var loader = Loader(set: set, allowRemote: allowRemote || location.isRemote, ids: ids, rootShown: shown)
    try await loader.follow(canonicalizer, of: location, bytes: rootBytes, read: read)
    set.documents = loader.set.documents
    return set
  }

  /// The breadth-first walk over files; each file is read, parsed and rewritten once.
  struct Loader {
    var set: DescriptionSet
    let allowRemote: Bool
    let ids: Set<String>
    let rootShown: String
    var totalBytes = 0

    /// A file as messages name it: as the user named the root, the others from the root's folder as named.
    func shown(_ location: DocumentLocation) -> String {
      if location == set.rootLocation { return rootShown }
      let relative = location.shown(relativeTo: set.rootLocation)
      if location.isRemote { return Self.masked(relative) }
      if relative.hasPrefix("/") { return relative }
      guard let slash = rootShown.lastIndex(of: "/"), !set.rootLocation.isRemote else { return relative }
      return String(rootShown[...slash]) + relative
    }

    mutating func follow(
      _ first: ReferenceCanonicalizer, of firstLocation: DocumentLocation, bytes firstBytes: [UInt8],
      read: (DocumentLocation) async throws(APXError) -> [UInt8]
    ) async throws(APXError) {
      var queue: [(ReferenceCanonicalizer, DocumentLocation, [UInt8])] = [(first, firstLocation, firstBytes)]
      var next = 0
      while next < queue.count {
        let (canonicalizer, location, bytes) = queue[next]
        queue[next].2 = []
        next += 1
        if let text = canonicalizer.unreadable.first {
          throw failure(
            text, in: location, bytes: bytes, "names a location apx cannot read",
            hint: "apx follows references to files and http(s) URLs")
        }
        for ref in canonicalizer.external {
          if set.documents[ref.target.key] == nil {
            if ref.target.isRemote, !allowRemote {
              throw failure(
                ref.text, in: location, bytes: bytes, "is a URL, and remote references are not followed by default",
                hint: "pass --allow-remote-refs to fetch it, or download the file and refer to it by path")
            }
            if !ref.target.isRemote, set.rootLocation.isRemote {
              throw failure(
                ref.text, in: location, bytes: bytes, "names a local file from a description fetched from a URL",
                hint: "download the description with the files it refers to, and import the local copy")
            }
            guard set.documents.count < DescriptionSet.maxFiles else {
              throw failure(
                ref.text, in: location, bytes: bytes,
                "would be file \(DescriptionSet.maxFiles + 1) of the description; apx reads at most \(DescriptionSet.maxFiles)",
                hint: "is it really an API description?")
            }
            let targetBytes: [UInt8]
            do {
              targetBytes = try await read(ref.target)
            } catch {
              throw failure(
                ref.text, in: location, bytes: bytes, "cannot be read: \(error.message)",
                hint: "check that \(shown(ref.target)) exists next to \(shown(location))")
            }
            totalBytes += targetBytes.count
            guard totalBytes <= DescriptionSet.maxTotalBytes else {
              throw failure(
                ref.text, in: location, bytes: bytes,
                "takes the description past \(DescriptionSet.maxTotalBytes >> 20) MB in all",
                hint: "is it really an API description?")
            }
            let parsed = try DescriptionReader.read(targetBytes, source: shown(ref.target))
            var inner = ReferenceCanonicalizer(location: ref.target, root: set.rootLocation, ids: ids)
            set.documents[ref.target.key] = inner.canonicalize(parsed)
            queue.append((inner, ref.target, targetBytes))
          }
          if !ref.fragment.isEmpty {
            let document = set.documents[ref.target.key] ?? .null
            let found =
              ref.fragment.hasPrefix("/")
              ? ReferenceResolver.walk(document, pointer: ref.fragment) != nil
              : ReferenceResolver.identifiers(in: document)["#" + ref.fragment] != nil
            if !found {
              throw failure(
                ref.text, in: location, bytes: bytes,
                "points at #\(ref.fragment), which \(shown(ref.target)) does not have",
                hint: "check the path after '#' against \(shown(ref.target))")
            }
          }
        }
      }
    }

    /// A URL as messages show it: a password in its user info and credential query values as `***`.
    static func masked(_ text: String) -> String {
      var out = text
      for value in CredentialParams.values(inURL: text) where !value.isEmpty { out = out.replacing(value, with: "***") }
      if let info = URLUserInfo.range(in: out), let colon = out[info].firstIndex(of: ":") {
        out.replaceSubrange(out.index(after: colon)..<info.upperBound, with: "***")
      }
      return out
    }

    func failure(_ text: String, in location: DocumentLocation, bytes: [UInt8], _ why: String, hint: String)
      -> APXError
    {
      let line = SourceLines.line(ofReference: text, in: bytes)
      return APXError(
        .invalidDefinition, "the reference \(Self.masked(text)) \(why)", hint: hint,
        file: shown(location), location: line.map { SourceLocation(line: $0, column: 1) })
    }
  }
}

/// Finds where a text stands in a file, for messages about a parsed value whose tree
/// keeps no positions.
enum SourceLines {
  /// The 1-based line of the first `$ref` whose value is `text` (quoted or not).
  static func line(ofReference text: String, in bytes: [UInt8]) -> Int? {
    let needle = Array(text.utf8)
    guard !needle.isEmpty, needle.count <= bytes.count else { return nil }
    let marker = Array("$ref".utf8)
    var line = 1
    var lineStart = 0
    var i = 0
    while i + needle.count <= bytes.count {
      if bytes[i] == 0x0A {
        line += 1
        lineStart = i + 1
      } else if bytes[i] == needle[0], Array(bytes[i..<i + needle.count]) == needle,
        contains(marker, in: bytes[lineStart..<i])
      {
        return line
      }
      i += 1
    }
    return nil
  }

  static func contains(_ marker: [UInt8], in slice: ArraySlice<UInt8>) -> Bool {
    guard slice.count >= marker.count else { return false }
    var i = slice.startIndex
    while i + marker.count <= slice.endIndex {
      if slice[i..<i + marker.count].elementsEqual(marker) { return true }
      i += 1
    }
    return false
  }
}
