#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What is at a path, following symbolic links: `FileManager.fileExists(atPath:isDirectory:)`
/// takes an `ObjCBool` in full Foundation and a `Bool` in FoundationEssentials.
public enum FileKind {
  /// True for a folder, false for anything else, nil when nothing is there.
  public static func isDirectory(_ path: String) -> Bool? {
    #if canImport(FoundationEssentials)
      var isDirectory = false
    #else
      var isDirectory: ObjCBool = false
    #endif
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
    #if canImport(FoundationEssentials)
      return isDirectory
    #else
      return isDirectory.boolValue
    #endif
  }
}
