import APXTestSupport
import Foundation
import Testing

@testable import APXRuntime

/// `DirectoryListing`, the `readdir` listing that registry lookups use instead of FileManager:
/// the same names as FileManager's, and nil wherever FileManager's listing fails.
@Suite struct DirectoryListingTests {
  @Test func theSameNamesAsFileManagerWithHiddenAndNonASCIINames() throws {
    let dir = TestScratch.root.appendingPathComponent("apx-listing-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
    for name in ["a.json", ".hidden.json", "über-bücher.json", String(repeating: "n", count: 200) + ".json"] {
      try "{}".write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
    }
    let names = try #require(DirectoryListing.names(in: dir))
    #expect(names.sorted() == (try FileManager.default.contentsOfDirectory(atPath: dir)).sorted())
    #expect(names.count == 5)
    #expect(!names.contains(".") && !names.contains(".."))
  }

  @Test func nilForAMissingPathAndForAFile() throws {
    let dir = TestScratch.root.appendingPathComponent("apx-listing-\(UUID().uuidString)").path
    #expect(DirectoryListing.names(in: dir) == nil)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try "{}".write(toFile: dir + "/x.json", atomically: true, encoding: .utf8)
    #expect(DirectoryListing.names(in: dir + "/x.json") == nil)
    // A registry search path with a missing folder first still finds the folder after it.
    #expect(RegistryFiles(directories: [dir + "/missing", dir]).list().map(\.api) == ["x"])
  }
}
