import APXCore

/// `--all`, `--max-items` and `--max-pages`: following an endpoint's pages.
extension CallCommand {
  /// How `--all` follows pages.
  struct Paging: Equatable {
    var maxItems: Int?
    var maxPages: Int?
  }

  /// Why the paging flags cannot be used as given, or nil.
  var pagingProblem: String? {
    if !all {
      if maxItems != nil { return "--max-items goes with --all (it stops following pages after N items)" }
      if maxPages != nil { return "--max-pages goes with --all (it caps how many pages are followed)" }
      return nil
    }
    if let n = maxItems, n < 1 { return "--max-items must be at least 1" }
    if let n = maxPages, !(1...Pagination.maxPagesLimit).contains(n) {
      return "--max-pages must be between 1 and \(Pagination.maxPagesLimit)"
    }
    if maxEvents != nil { return "--max-events stops a stream; with --all, stop after N items with --max-items N" }
    if params.contains(Self.batchSeparator) { return "--all cannot be used in a JSON-RPC batch" }
    if save != nil { return "--save records one call, not the pages --all follows: save it without --all" }
    if dryRun || curl {
      return "\(dryRun ? "--dry-run" : "--curl") shows one request, and --all's later requests depend on the "
        + "answers: drop --all to see the first page's request"
    }
    return nil
  }
}
