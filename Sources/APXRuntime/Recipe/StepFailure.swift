import APXCore

/// A step's failure that `RecipeRunner.apxError` has made already (a loop item's, rethrown by
/// the loop): it names the step, and mapping it again would name it twice.
struct StepFailure: Error {
  var error: APXError
}
