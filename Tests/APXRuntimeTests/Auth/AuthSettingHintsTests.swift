import Testing

@testable import APXRuntime

/// Auth errors name the environment variables to check, never their values.
@Suite struct AuthSettingHintsTests {
  @Test func variablesAreFoundWithAndWithoutFallbacks() {
    #expect(AuthSettingHints.environmentVariables(in: "${env:A}") == ["A"])
    #expect(AuthSettingHints.environmentVariables(in: "x${env:B:-dflt}y${env:C}") == ["B", "C"])
    #expect(AuthSettingHints.environmentVariables(in: "literal") == [])
  }

  @Test func theHintListsVariablesAndUnsetOnes() {
    let hint = AuthSettingHints.check(
      fields: [("client_id", "${env:ID:-x}"), ("client_secret", "${env:SECRET}")], environment: ["SECRET": "s3cr3t"],
      file: "books.json")
    #expect(hint.contains("ID and SECRET"))
    #expect(hint.contains("ID is not set"))
    #expect(!hint.contains("s3cr3t"))
    let literal = AuthSettingHints.check(fields: [("client_id", "abc")], environment: [:], file: "f.json")
    #expect(literal == "check client_id of the \"auth\" block in f.json")
  }
}
