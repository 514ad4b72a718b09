import APXCore
import Foundation
import Testing

@testable import apx

/// The exit number of each status, chosen at the command line's edge, is the one the
/// README's exit-code table documents.
@Suite("exit status codes")
struct ExitStatusCodeTests {
  static let fixed: [(APXCore.ExitStatus, Int32)] = [
    (.success, 0), (.internalFailure, 1), (.usage, 2), (.invalidDefinition, 3), (.httpClientError, 4),
    (.httpServerError, 5), (.network, 6), (.timeout, 7), (.auth, 8), (.expectation, 9), (.remoteFailure, 10),
    (.jsonrpcError, 11), (.graphqlError, 12), (.interrupted, 130),
  ]

  @Test func everyStatusHasItsNumber() {
    for (status, code) in Self.fixed { #expect(status.code == code, "\(status)") }
  }

  @Test func grpcStatusesAreOffsetBy64AndStayInTheirRange() {
    #expect(APXCore.ExitStatus.grpc(code: 14).code == 78)
    #expect(APXCore.ExitStatus.grpc(code: 16).code == 80)
    #expect(APXCore.ExitStatus.grpc(code: -3).code == 64)
    #expect(APXCore.ExitStatus.grpc(code: 1000).code == 127)
  }

  /// The root help's exit codes and protocol list are built from the code: every status and
  /// every endpoint kind is there.
  @Test func theRootHelpListsEveryCodeAndProtocol() {
    let help = APX.helpMessage(columns: 200)
    // Wrapped rows read as one line.
    let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(Set(APXCore.ExitStatus.documented.map(\.codeText)) == Set(Self.fixed.map { "\($0.1)" } + ["64+N"]))
    for status in APXCore.ExitStatus.documented {
      #expect(help.contains("\n  \(status.codeText) ") && flat.contains(status.meaning), "\(status)")
    }
    for kind in EndpointKind.allCases { #expect(help.contains(kind.displayName), "\(kind)") }
  }

  @Test func theREADMETableListsTheSameNumbers() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.components(separatedBy: "## Exit codes").dropFirst().first)
      .components(separatedBy: "\n## ")[0]
    let documented = section.split(separator: "\n").compactMap { line -> Int32? in
      guard line.hasPrefix("| ") else { return nil }
      return Int32(line.dropFirst(2).prefix { $0 != " " && $0 != "|" })
    }
    #expect(Set(documented) == Set(Self.fixed.map(\.1)))
    #expect(section.contains("| 64+N | gRPC status N"))
  }

  /// The README's first paragraph and its `--demo` line name every kind the code has, as the
  /// root help does (`EndpointKind.allNamed`).
  @Test func theREADMENamesEveryKind() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let intro = readme.components(separatedBy: "\n\n").prefix(2).joined(separator: " ")
      .replacingOccurrences(of: "\n", with: " ")
    let demo = try #require(readme.components(separatedBy: "\n\n").first { $0.hasPrefix("`--demo` starts") })
      .replacingOccurrences(of: "\n", with: " ")
    for kind in EndpointKind.allCases {
      #expect(intro.contains(kind.displayName), "the README's intro lacks \(kind.displayName)")
      #expect(demo.contains(kind.displayName), "the README's --demo line lacks \(kind.displayName)")
    }
  }
}
