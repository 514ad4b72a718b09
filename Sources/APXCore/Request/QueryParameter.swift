/// Sets one parameter in the query of a URL text.
public enum QueryParameter {
  /// `url` with every pair of its query named `name` (compared percent-decoded) removed and
  /// `name=value` (both percent-encoded here) appended; a fragment stays last. A parameter
  /// set this way is sent once even when the URL carried it already, as a server's next-page
  /// link that copies the whole query does (an API key in the query would otherwise go twice).
  public static func replacing(_ name: String, with value: String, in url: String) -> String {
    var rest = Substring(url)
    var fragment = ""
    if let hash = rest.firstIndex(of: "#") {
      fragment = String(rest[hash...])
      rest = rest[..<hash]
    }
    var base = rest
    var kept: [Substring] = []
    if let question = rest.firstIndex(of: "?") {
      base = rest[..<question]
      kept = rest[rest.index(after: question)...].split(separator: "&", omittingEmptySubsequences: true).filter {
        PercentDecoding.decode(String($0.prefix { $0 != "=" }).replacing("+", with: " ")) != name
      }
    }
    let pair =
      PercentEncoding.encode(name, allowed: .queryComponent) + "="
      + PercentEncoding.encode(value, allowed: .queryComponent)
    return base + "?" + (kept.map(String.init) + [pair]).joined(separator: "&") + fragment
  }
}
