#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file operation failed, in the system's words (`Permission denied`, `No such file or
/// directory`): the POSIX error under FoundationEssentials' `CocoaError`. Full Foundation's
/// `localizedDescription` is not linked.
public enum FileErrorText {
  /// The system's words for `error`, or its description when it carries no POSIX code.
  public static func describe(_ error: any Error) -> String {
    let posix = (error as? POSIXError) ?? ((error as? CocoaError)?.underlying as? POSIXError)
    if let posix { return String(cString: strerror(posix.code.rawValue)) }
    return "\(error)"
  }
}
