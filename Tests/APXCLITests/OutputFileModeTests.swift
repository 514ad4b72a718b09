import Foundation
import Testing

@testable import apx

/// `-O FILE` keeps an existing file's permission bits, whatever integer type FileManager reports
/// them in: an `NSNumber` where full Foundation is linked (the debug build), a fixed-width integer
/// where only FoundationEssentials is (the release build). Reading only one of them lost a 0600
/// file's mode in the shipped binary.
@Suite("-O FILE: the mode of an existing file")
struct OutputFileModeTests {
  @Test func everyIntegerFormOfTheModeIsRead() {
    #expect(OutputFile.mode(0o600 as Int) == 0o600)
    #expect(OutputFile.mode(UInt16(0o640)) == 0o640)
    #expect(OutputFile.mode(Int16(0o644)) == 0o644)
    #expect(OutputFile.mode(UInt32(0o4755)) == 0o4755)
    #expect(OutputFile.mode(NSNumber(value: 0o600)) == 0o600)
  }

  @Test func noModeIsNoMode() {
    #expect(OutputFile.mode(nil) == nil)
    #expect(OutputFile.mode("0600") == nil)
  }
}
