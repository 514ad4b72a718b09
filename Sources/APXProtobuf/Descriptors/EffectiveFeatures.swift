import SwiftProtobuf

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
  static func forFile(_ file: Google_Protobuf_FileDescriptorProto) -> EffectiveFeatures {
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
    if file.hasOptions && file.options.hasFeatures { f.apply(file.options.features) }
    return f
  }

  /// Overrides from a `features` option on a message, field or enum.
  mutating func apply(_ set: Google_Protobuf_FeatureSet) {
    if set.hasFieldPresence {
      switch set.fieldPresence {
      case .explicit: presence = .explicit
      case .implicit: presence = .implicit
      case .legacyRequired: presence = .legacyRequired
      default: break
      }
    }
    if set.hasRepeatedFieldEncoding {
      switch set.repeatedFieldEncoding {
      case .packed: packed = true
      case .expanded: packed = false
      default: break
      }
    }
    if set.hasEnumType {
      switch set.enumType {
      case .closed: closedEnums = true
      case .open: closedEnums = false
      default: break
      }
    }
    if set.hasMessageEncoding {
      switch set.messageEncoding {
      case .delimited: delimitedMessages = true
      case .lengthPrefixed: delimitedMessages = false
      default: break
      }
    }
  }
}
