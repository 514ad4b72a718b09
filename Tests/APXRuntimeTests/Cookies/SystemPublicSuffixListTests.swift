import APXCore
import Foundation
import Synchronization
import Testing

@testable import APXRuntime

/// The system's Public Suffix List (Debian's `publicsuffix`, which `.ci/run` installs) judges a
/// cookie's Domain by rules the built-in ones lack, and a refused cookie is reported.
@Suite struct SystemPublicSuffixListTests {
  static let installed = SystemPublicSuffixList.paths.contains { FileManager.default.fileExists(atPath: $0) }
  static let required = installed || ProcessInfo.processInfo.environment["APX_CI"] != nil

  @Test(.enabled(if: required, "no Public Suffix List on this system (apt-get install publicsuffix)"))
  func theSystemListIsReadAndKnowsMoreThanTheBuiltInRules() {
    let list = SystemPublicSuffixList.shared
    #expect(list.source.hasPrefix("the Public Suffix List in /"), "\(list.source)")
    // A rule only the full list has.
    #expect(list.isPublicSuffix("pvt.k12.ma.us") && !PublicSuffixList.builtIn.isPublicSuffix("pvt.k12.ma.us"))
    #expect(!list.isPublicSuffix("example.co.uk") && list.isPublicSuffix("co.uk"))
  }

  @Test func aRefusedCookieIsReportedAndNotKept() {
    let jar = SharedCookieJar(now: { 1_800_000_000 })
    let lines = Mutex<[String]>([])
    jar.reportRefusals { line in lines.withLock { $0.append(line) } }
    jar.store([HeaderField("Set-Cookie", "x=1; Domain=github.io")], from: "https://me.github.io/")
    jar.store([HeaderField("Set-Cookie", "y=2; Domain=me.github.io")], from: "https://me.github.io/")
    #expect(jar.snapshot.cookies.map(\.name) == ["y"])
    let reported = lines.withLock { $0 }
    #expect(reported.count == 1)
    #expect(
      reported.first?.hasPrefix(
        #"apx: ignored the cookie "x" from me.github.io: its Domain=github.io is a public suffix"#) == true,
      "\(reported)")
  }
}
