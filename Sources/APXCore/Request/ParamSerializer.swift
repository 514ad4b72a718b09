/// Writes parameter values into paths, queries, headers and cookies the way
/// OpenAPI's `style` and `explode` describe (OpenAPI 3.1 "Style Values";
/// a scalar is the same in every style except `label` and `matrix`).
enum ParamSerializer {
  /// The text of each scalar (arrays of scalars only); nil for nested values.
  static func items(_ value: JSONValue) -> [String]? {
    var out: [String] = []
    for item in value.arrayValue ?? [value] {
      guard let s = RequestBuilder.text(item) else { return nil }
      out.append(s)
    }
    return out
  }

  /// Object members as key/text pairs (nested values as compact JSON).
  static func pairs(_ members: [JSONMember]) -> [(String, String)] {
    members.map { ($0.key, RequestBuilder.text($0.value) ?? $0.value.compactJSON) }
  }

  /// The path segment for `param`, already percent-encoded.
  static func path(_ param: Param, _ value: JSONValue) throws(APXError) -> String {
    let enc = { (s: String) in PercentEncoding.encode(s, allowed: .pathSegment) }
    let name = enc(param.sentName)
    let explode = param.effectiveExplode
    if case .object(let members) = value {
      let kv = pairs(members)
      switch param.effectiveStyle {
      case .label:
        return "."
          + kv.map { explode ? enc($0.0) + "=" + enc($0.1) : enc($0.0) + "," + enc($0.1) }
          .joined(separator: explode ? "." : ",")
      case .matrix:
        return explode
          ? kv.map { ";" + enc($0.0) + matrixValue(enc($0.1)) }.joined()
          : ";" + name + "=" + kv.map { enc($0.0) + "," + enc($0.1) }.joined(separator: ",")
      default:
        return kv.map { explode ? enc($0.0) + "=" + enc($0.1) : enc($0.0) + "," + enc($0.1) }.joined(separator: ",")
      }
    }
    guard let values = items(value)?.map(enc) else {
      throw APXError(.usage, "path parameter \(param.name) must hold plain values, got \(value.typeName)")
    }
    if value.arrayValue == nil, param.style == nil || param.style == .simple {
      // "." and ".." alone are dot-segments, which URL normalization removes with the segment before.
      return values[0] == "." || values[0] == ".." ? String(repeating: "%2E", count: values[0].count) : values[0]
    }
    switch param.effectiveStyle {
    case .label: return "." + values.joined(separator: explode ? "." : ",")
    case .matrix:
      return explode
        ? values.map { ";" + name + matrixValue($0) }.joined()
        : ";" + name + matrixValue(values.joined(separator: ","))
    default: return values.joined(separator: ",")
    }
  }

  /// `=value` after a matrix name, or nothing for an empty value (`;color`, RFC 6570's `;` expansion).
  static func matrixValue(_ encoded: String) -> String { encoded.isEmpty ? "" : "=" + encoded }

  /// Query (or cookie) name/value pairs, not yet percent-encoded.
  static func query(_ param: Param, _ value: JSONValue) throws(APXError) -> [(String, String)] {
    let name = param.sentName
    let explode = param.effectiveExplode
    if case .null = value { return [] }
    if case .object(let members) = value {
      let kv = pairs(members)
      switch param.effectiveStyle {
      case .deepObject: return kv.map { ("\(name)[\($0.0)]", $0.1) }
      case .spaceDelimited, .pipeDelimited:
        let sep = param.effectiveStyle == .spaceDelimited ? " " : "|"
        return [(name, kv.map { $0.0 + sep + $0.1 }.joined(separator: sep))]
      default:
        return explode ? kv : [(name, kv.map { $0.0 + "," + $0.1 }.joined(separator: ","))]
      }
    }
    guard let values = items(value) else {
      let item = value.arrayValue?.first { RequestBuilder.text($0) == nil }
      throw APXError(
        .usage,
        "\(param.location.rawValue) parameter \(param.name) must hold plain values, got \((item ?? value).typeName)")
    }
    if value.arrayValue == nil { return [(name, values[0])] }
    switch param.effectiveStyle {
    case .spaceDelimited: return [(name, values.joined(separator: " "))]
    case .pipeDelimited: return [(name, values.joined(separator: "|"))]
    default: return explode ? values.map { (name, $0) } : [(name, values.joined(separator: ","))]
    }
  }

  /// Fields of a form or multipart body for a parameter that declares `style` or `explode`
  /// (OpenAPI's `encoding` of a body property), not yet percent-encoded. `deepObject` writes
  /// brackets to any depth, as Stripe and Rack, PHP or `qs` servers read them: object members
  /// `metadata[foo]=bar`, array items `expand[]=a&expand[]=b` (numbered, `items[0][price]=p`,
  /// when they are objects or arrays), null as an empty value (Stripe's "unset"). The other
  /// styles are those of a query.
  static func form(_ param: Param, _ value: JSONValue) throws(APXError) -> [(String, String)] {
    guard param.effectiveStyle == .deepObject else { return try query(param, value) }
    var out: [(String, String)] = []
    brackets(param.sentName, value, into: &out)
    return out
  }

  static func brackets(_ name: String, _ value: JSONValue, into out: inout [(String, String)]) {
    switch value {
    case .object(let members):
      for member in members { brackets(name + "[" + member.key + "]", member.value, into: &out) }
    case .array(let items):
      let numbered = items.contains { $0.arrayValue != nil || $0.objectMembers != nil }
      for (i, item) in items.enumerated() { brackets(name + (numbered ? "[\(i)]" : "[]"), item, into: &out) }
    case .null:
      out.append((name, ""))
    case .string, .number, .bool:
      out.append((name, RequestBuilder.text(value) ?? ""))
    }
  }

  /// A header value (`simple` style).
  static func header(_ param: Param, _ value: JSONValue) throws(APXError) -> String {
    if case .object(let members) = value {
      return pairs(members).map { param.effectiveExplode ? $0.0 + "=" + $0.1 : $0.0 + "," + $0.1 }
        .joined(separator: ",")
    }
    guard let values = items(value) else {
      throw APXError(.usage, "header parameter \(param.name) must hold plain values, got \(value.typeName)")
    }
    return values.joined(separator: ",")
  }
}
