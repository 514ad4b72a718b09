import Testing

@testable import apx

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ProcessEnvironment` reads `environ` as bytes: it must split as getenv does.
@Suite("process environment")
struct ProcessEnvironmentTests {
  @Test func splitsAtTheFirstEqualsSignAndTheFirstNameWins() {
    let entries = ["A=1", "B=a=b==c", "A=2", "EMPTY=", "NO_EQUALS_SIGN", "UTF8=héllo ✓", "=nameless"]
    var pointers: [UnsafeMutablePointer<CChar>?] = entries.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    let pairs = pointers.withUnsafeMutableBufferPointer { ProcessEnvironment.pairs($0.baseAddress!) }
    #expect(pairs == ["A": "1", "B": "a=b==c", "EMPTY": "", "UTF8": "héllo ✓", "": "nameless"])
  }

  @Test func agreesWithGetenv() {
    let environment = ProcessEnvironment.current()
    #expect(!environment.isEmpty)
    for (name, value) in environment where !name.isEmpty {
      #expect(getenv(name).map { String(cString: $0) } == value, "\(name)")
    }
  }
}
