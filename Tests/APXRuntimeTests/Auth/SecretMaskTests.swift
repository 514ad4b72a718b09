import APXCore
import Testing

@testable import APXRuntime

/// Issue 10 item 6: a secret is masked in every encoding apx produces or a server echoes.
@Suite struct SecretMaskTests {
  let key = "AbC+dEf/GhI= x\"y"

  @Test func everyEncodingOfASecretIsMasked() {
    let mask = SecretMask(secrets: [key])
    let percent = PercentEncoding.encode(key, allowed: .queryComponent)
    #expect(percent == "AbC%2BdEf%2FGhI%3D%20x%22y")
    for shown in [
      key, percent, "AbC%2bdEf%2fGhI%3d%20x%22y", "AbC%2BdEf%2FGhI%3D+x%22y",
      #"AbC+dEf/GhI= x\"y"#, #"AbC+dEf\/GhI= x\"y"#,
    ] {
      let text = "GET /api?key=\(shown) answered 401"
      #expect(mask.mask(text) == "GET /api?key=*** answered 401", "\(shown)")
    }
  }

  /// The encoded form alone (the raw key nowhere in the text) is masked too.
  @Test func anEncodedKeyWithoutTheRawOneIsMasked() {
    let mask = SecretMask(secrets: ["AbC+dEf/GhI="])
    #expect(mask.mask("/api/v1/AbC%2BdEf%2FGhI%3D/gifs") == "/api/v1/***/gifs")
    #expect(mask.mask(#"{"error":"bad client_secret AbC%2BdEf%2FGhI%3D"}"#) == #"{"error":"bad client_secret ***"}"#)
  }

  @Test func aSecretContainingAnotherIsMaskedWhole() {
    let mask = SecretMask(secrets: ["abc", "abcdef"])
    #expect(mask.mask("x abcdef y abc") == "x *** y ***")
  }
}
