/// The behaviour a file's syntax or edition gives its fields: presence,
/// repeated encoding, enum openness and message encoding. Proto2 and proto3
/// map onto the same four switches editions made explicit.
struct EffectiveFeatures: Sendable {
  enum Presence: Sendable { case explicit, implicit, legacyRequired }
  var presence: Presence
  var packed: Bool
  var closedEnums: Bool
  var delimitedMessages: Bool

  /// The defaults of a file, from its `syntax` (or edition) and file-level features.
  static func forFile(_ file: RawDescriptor.File) -> EffectiveFeatures {
    var f: EffectiveFeatures
    switch file.syntax {
    case "proto3":
      f = EffectiveFeatures(presence: .implicit, packed: true, closedEnums: false, delimitedMessages: false)
    case "editions":
      // Edition 2023 defaults.
      f = EffectiveFeatures(presence: .explicit, packed: true, closedEnums: false, delimitedMessages: false)
    default:
      f = EffectiveFeatures(presence: .explicit, packed: false, closedEnums: true, delimitedMessages: false)
    }
    if let features = file.features { f.apply(features) }
    return f
  }

  /// Overrides from a `features` option on a message, field or enum.
  mutating func apply(_ set: RawDescriptor.Features) {
    switch set.fieldPresence {
    case 1: presence = .explicit
    case 2: presence = .implicit
    case 3: presence = .legacyRequired
    default: break
    }
    switch set.repeatedFieldEncoding {
    case 1: packed = true
    case 2: packed = false
    default: break
    }
    switch set.enumType {
    case 1: closedEnums = false
    case 2: closedEnums = true
    default: break
    }
    switch set.messageEncoding {
    case 1: delimitedMessages = false
    case 2: delimitedMessages = true
    default: break
    }
  }
}
