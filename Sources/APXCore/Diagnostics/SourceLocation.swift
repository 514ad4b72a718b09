/// A position in a source file, 1-based, with columns counted in Unicode scalars.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public var description: String { "\(line):\(column)" }
}

/// One step of a path into a JSON document.
public enum JSONPathComponent: Sendable, Hashable {
  case key(String)
  case index(Int)
}

extension Array where Element == JSONPathComponent {
  /// Renders the path jq-style: `.endpoints["imports.create"].params.csv`, `.steps[0].id`.
  /// The root renders as `.`.
  public var rendered: String {
    if isEmpty { return "." }
    var out = ""
    for component in self {
      switch component {
      case .index(let i): out += "[\(i)]"
      case .key(let k):
        if k.first.map({ $0.isLetter || $0 == "_" }) == true,
          k.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
          k.unicodeScalars.allSatisfy(\.isASCII)
        {
          out += ".\(k)"
        } else {
          var escaped = ""
          for ch in k {
            switch ch {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            default: escaped.append(ch)
            }
          }
          out += "[\"\(escaped)\"]"
        }
      }
    }
    return out
  }
}
