import APXCore

/// The simple regular expressions a mock can generate text for: literal characters, `.`,
/// classes (`[a-z0-9_]`, `\d`, `\w`), the quantifiers `?`, `*`, `+`, `{n}`, `{n,m}`, and
/// the anchors `^` and `$`. Anything else (groups, alternation, look-arounds) is not simple:
/// `init` returns nil and the schema's other keywords decide.
struct SimplePattern {
  private struct Atom {
    var choices: [Character]
    var min: Int
    var max: Int
  }

  private let atoms: [Atom]

  init?(_ pattern: String) {
    var chars = Array(pattern)
    if chars.first == "^" { chars.removeFirst() } else { return nil }  // unanchored: any text may surround it
    if chars.last == "$" { chars.removeLast() } else { return nil }
    var atoms: [Atom] = []
    var i = 0
    while i < chars.count {
      var choices: [Character]
      switch chars[i] {
      case "(", ")", "|", "^", "$", "*", "+", "?", "{", "}": return nil
      case "\\":
        guard i + 1 < chars.count, let set = Self.escape(chars[i + 1]) else { return nil }
        choices = set
        i += 2
      case "[":
        guard let (set, next) = Self.characterClass(chars, from: i + 1) else { return nil }
        choices = set
        i = next
      case ".":
        choices = Self.letters + Self.digits
        i += 1
      default:
        choices = [chars[i]]
        i += 1
      }
      var atom = Atom(choices: choices, min: 1, max: 1)
      if i < chars.count {
        switch chars[i] {
        case "?": (atom.min, atom.max, i) = (0, 1, i + 1)
        case "*": (atom.min, atom.max, i) = (0, 4, i + 1)
        case "+": (atom.min, atom.max, i) = (1, 4, i + 1)
        case "{":
          guard let close = chars[i...].firstIndex(of: "}") else { return nil }
          let bounds = String(chars[(i + 1)..<close]).split(separator: ",", omittingEmptySubsequences: false)
          guard let low = Int(bounds.first ?? ""), bounds.count <= 2 else { return nil }
          let high = bounds.count == 2 ? (bounds[1].isEmpty ? low + 4 : Int(bounds[1])) : low
          guard let high, high >= low, high <= 1000 else { return nil }
          (atom.min, atom.max, i) = (low, high, close + 1)
        default: break
        }
      }
      if atom.choices.isEmpty { return nil }
      atoms.append(atom)
    }
    self.atoms = atoms
  }

  /// Text the pattern matches, within the length bounds when the pattern allows them; nil when it cannot.
  func generate(_ random: inout SeededRandom, minLength: Int, maxLength: Int) -> String? {
    var counts = atoms.map { $0.min + Int(random.next() % UInt64($0.max - $0.min + 1)) }
    var total = counts.reduce(0, +)
    for i in counts.indices where total < minLength {
      let grow = min(atoms[i].max - counts[i], minLength - total)
      counts[i] += grow
      total += grow
    }
    for i in counts.indices where total > maxLength {
      let shrink = min(counts[i] - atoms[i].min, total - maxLength)
      counts[i] -= shrink
      total -= shrink
    }
    guard (minLength...maxLength).contains(total) else { return nil }
    var out = ""
    for (atom, count) in zip(atoms, counts) {
      for _ in 0..<count { out.append(atom.choices[Int(random.next() % UInt64(atom.choices.count))]) }
    }
    return out
  }

  private static let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
  private static let digits = Array("0123456789")

  private static func escape(_ c: Character) -> [Character]? {
    switch c {
    case "d": return digits
    case "w": return letters + digits + ["_"]
    case "s": return [" "]
    case _ where c.isLetter || c.isNumber: return nil  // \b, \D, \p{...}: not simple
    default: return [c]
    }
  }

  /// `[...]` from after its `[`: its characters and the index after its `]`; nil for negated or odd classes.
  private static func characterClass(_ chars: [Character], from start: Int) -> ([Character], Int)? {
    var i = start
    var set: [Character] = []
    guard i < chars.count, chars[i] != "^" else { return nil }
    while i < chars.count, chars[i] != "]" {
      var c = chars[i]
      if c == "\\" {
        guard i + 1 < chars.count, let escaped = escape(chars[i + 1]) else { return nil }
        set += escaped
        i += 2
        continue
      }
      if c == "[" { return nil }
      if i + 2 < chars.count, chars[i + 1] == "-", chars[i + 2] != "]" {
        let end = chars[i + 2]
        guard let a = c.unicodeScalars.first?.value, let b = end.unicodeScalars.first?.value, a <= b, b - a < 256
        else { return nil }
        for v in a...b { if let s = Unicode.Scalar(v) { set.append(Character(s)) } }
        i += 3
        continue
      }
      c = chars[i]
      set.append(c)
      i += 1
    }
    guard i < chars.count else { return nil }
    return (set, i + 1)
  }
}
