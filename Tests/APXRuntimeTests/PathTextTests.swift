import Testing

@testable import APXRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `PathText`: NSString's path properties without Foundation.
@Suite("Path text")
struct PathTextTests {
  @Test func lastComponent() {
    #expect(PathText.lastComponent("/a/b") == "b")
    #expect(PathText.lastComponent("/a/b/") == "b")
    #expect(PathText.lastComponent("a//b") == "b")
    #expect(PathText.lastComponent("b") == "b")
    #expect(PathText.lastComponent("/") == "/")
    #expect(PathText.lastComponent("") == "")
  }

  @Test func deletingLastComponent() {
    #expect(PathText.deletingLastComponent("/a/b") == "/a")
    #expect(PathText.deletingLastComponent("/a/b/") == "/a")
    #expect(PathText.deletingLastComponent("/a") == "/")
    #expect(PathText.deletingLastComponent("a") == "")
    #expect(PathText.deletingLastComponent("a//b") == "a")
    #expect(PathText.deletingLastComponent("/") == "/")
  }

  @Test func deletingExtension() {
    #expect(PathText.deletingExtension("run-1.jsonl") == "run-1")
    #expect(PathText.deletingExtension("a.tar.gz") == "a.tar")
    #expect(PathText.deletingExtension(".hidden") == ".hidden")
    #expect(PathText.deletingExtension("..") == "..")
    #expect(PathText.deletingExtension("plain") == "plain")
    #expect(PathText.deletingExtension("dir.d/file") == "dir.d/file")
  }

  @Test func symbolicLinksAreResolvedAndMissingPathsCleaned() throws {
    let folder = "/tmp/apx-pathtext-\(getpid())"
    mkdir(folder, 0o700)
    defer {
      unlink(folder + "/link")
      rmdir(folder + "/real")
      rmdir(folder)
    }
    mkdir(folder + "/real", 0o700)
    symlink(folder + "/real", folder + "/link")
    let real = PathText.resolvingSymlinks(folder + "/real")
    #expect(PathText.resolvingSymlinks(folder + "/link") == real)
    #expect(PathText.resolvingSymlinks(folder + "/./link/") == real)
    #expect(PathText.resolvingSymlinks("/no/such//./place") == "/no/such/place")
  }
}
