/// The tag an untagged plain scalar resolves to: Yams 6.2.2's default resolver rules, in its
/// order (bool, int, float, merge, null, timestamp, value; a string otherwise). Only used to
/// compare two mapping keys of the same text, so a Swift `Regex` (compiled on first use)
/// costs nothing on the common path.
enum YAMLPlainScalarTag {
  private static let merge = "tag:yaml.org,2002:merge"
  private static let timestamp = "tag:yaml.org,2002:timestamp"
  private static let value = "tag:yaml.org,2002:value"

  private nonisolated(unsafe) static let rules: [(tag: String, pattern: Regex<AnyRegexOutput>)] = [
    (YAMLTag.bool, "^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"),
    (
      YAMLTag.int,
      "^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$"
    ),
    (
      YAMLTag.float,
      "^(?:[-+]?(?:[0-9][0-9_]*)(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9_]+(?:[eE][-+][0-9]+)?"
        + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"
    ),
    (merge, "^(?:<<)$"),
    (YAMLTag.null, "^(?:~|null|Null|NULL|)$"),
    (
      timestamp,
      "^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
        + "(?:[Tt]|[ \\t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\\.[0-9]*)?"
        + "(?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$"
    ),
    (value, "^(?:=)$"),
  ].map { rule in
    // The patterns are constants checked by YAMLKeysTests; matched by Unicode scalar as ICU did.
    // swift-format-ignore: NeverUseForceTry
    (rule.0, try! Regex(rule.1).matchingSemantics(.unicodeScalar))
  }

  static func resolve(_ text: String) -> String {
    for rule in rules where (try? rule.pattern.firstMatch(in: text)) != nil {
      return rule.tag
    }
    return YAMLTag.str
  }
}
