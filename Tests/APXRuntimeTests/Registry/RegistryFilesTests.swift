import APXCore
import APXTestSupport
import Foundation
import Testing

@testable import APXRuntime

/// Registry entries may be folders or single `<api>.json` files.
@Suite("Registry files: folders and single files")
struct RegistryFilesTests {
  static func makeFolder() throws -> String {
    let dir = TestScratch.root.appendingPathComponent("apx-registry-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for api in ["alpha", "beta"] {
      let text = #"{"api": "\#(api)", "environments": {"dev": {"base_url": "http://127.0.0.1:1"}}, "endpoints": {}}"#
      try text.write(toFile: dir + "/\(api).json", atomically: true, encoding: .utf8)
    }
    return dir
  }

  @Test func aFileEntryServesItsAPIAndIsListed() throws {
    let dir = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let files = RegistryFiles(directories: [dir + "/beta.json"])
    #expect(try files.path(of: "beta") == dir + "/beta.json")
    #expect(files.list().map(\.api) == ["beta"])
    #expect(throws: APXError.self) { _ = try files.path(of: "alpha") }
  }

  @Test func anUnknownAPIIsSaidByItsReason() throws {
    let dir = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let error = #expect(throws: APXError.self) { _ = try RegistryFiles(directories: [dir]).path(of: "gamma") }
    #expect(error?.reason == .unknownAPI)
  }

  @Test func theFirstEntryWinsWhetherFileOrFolder() throws {
    let dir = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let other = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: other) }
    let files = RegistryFiles(directories: [other + "/alpha.json", dir])
    #expect(try files.path(of: "alpha") == other + "/alpha.json")
    #expect(try files.path(of: "beta") == dir + "/beta.json")
    #expect(files.list().map(\.api) == ["alpha", "beta"])
  }

  @Test func aFolderNamedLikeAJSONFileIsStillAFolder() throws {
    let dir = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let odd = dir + "/more.json"
    try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: true)
    #expect(RegistryFiles.apiName(ofFile: odd) == nil)
    #expect(RegistryFiles.apiName(ofFile: dir + "/alpha.json") == "alpha")
  }
}
