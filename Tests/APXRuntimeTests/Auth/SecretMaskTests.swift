import APXCore
import Testing

@testable import APXRuntime

/// A secret is masked in every encoding apx produces or a server echoes.
@Suite struct SecretMaskTests {
  let key = "AbC+dEf/GhI= x\"y"

  @Test func everyEncodingOfASecretIsMasked() {
    let mask = SecretMask(secrets: [key])
    let percent = PercentEncoding.encode(key, allowed: .queryComponent)
    #expect(percent == "AbC%2BdEf%2FGhI%3D%20x%22y")
    for shown in [
      key, percent, "AbC%2bdEf%2fGhI%3d%20x%22y", "AbC%2BdEf%2FGhI%3D+x%22y",
      #"AbC+dEf/GhI= x\"y"#, #"AbC+dEf\/GhI= x\"y"#,
      // Escaped twice: a JSON error body carried as a string inside another JSON document.
      #"AbC+dEf/GhI= x\\\"y"#, #"AbC+dEf\\/GhI= x\\\"y"#,
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

  /// An API key sent in the query: its parameter's value is masked in any form a server writes it.
  @Test func aQueryParameterIsMaskedInAnyEncoding() {
    var mask = SecretMask(secrets: ["k3y/Secret+Value="])
    mask.addQueryParameter("api_key")
    #expect(
      mask.mask("Link: </items?page=2&api_key=k3y/Secret%2BValue%3D>; rel=\"next\"")
        == "Link: </items?page=2&api_key=***>; rel=\"next\"")
    #expect(mask.mask("GET /items?api_key=other#top") == "GET /items?api_key=***#top")
    #expect(mask.mask("{\"next\": \"/items?x=1&api_key=abc\"}") == "{\"next\": \"/items?x=1&api_key=***\"}")
    // Only the parameter itself, not a longer name or a name in running text.
    #expect(mask.mask("/items?my_api_key=abc api_key=def") == "/items?my_api_key=abc api_key=def")
  }

  /// A mask that knows nothing to mask in text says so; one secret or query parameter is enough.
  @Test func aMaskSaysWhetherItCanChangeText() {
    #expect(!SecretMask().masksText)
    #expect(!SecretMask(secrets: ["ab"]).masksText, "too short to be masked")
    #expect(!SecretMask(extraHeaders: ["X-Key"]).masksText, "header names mask header values, not text")
    #expect(SecretMask(secrets: ["abc"]).masksText)
    var query = SecretMask()
    query.addQueryParameter("api_key")
    #expect(query.masksText)
  }
}
