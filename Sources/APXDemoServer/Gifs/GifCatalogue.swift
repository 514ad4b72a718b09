/// The fixed catalogue behind the demo GIF API (Klipy-style).
///
/// Items deliberately carry what JSON clients get wrong: ids above 2^53, numbers whose
/// trailing zeros matter (`1.10`), non-ASCII and emoji titles, and nested objects.
struct GifCatalogue: Sendable {
  /// One GIF.
  struct Item: Sendable {
    /// Decimal text of an id above 2^53 (not representable as a Double).
    let id: String
    let slug: String
    let title: String
    let tags: [String]
    /// Literal number text, e.g. `1.10`.
    let rating: String
    /// Literal number text, e.g. `2.50`.
    let duration: String
    let index: Int

    /// The item as JSON with its numbers spelled exactly.
    var json: JSONText {
      .object([
        ("id", .number(id)),
        ("slug", .string(slug)),
        ("title", .string(title)),
        ("type", .string("gif")),
        ("rating", .number(rating)),
        ("duration", .number(duration)),
        ("tags", .array(tags.map { .string($0) })),
        (
          "file",
          .object([
            ("hd", rendition(slug: slug, name: "hd", width: 498, height: 280, size: 1_234_567 + index * 7919)),
            ("md", rendition(slug: slug, name: "md", width: 320, height: 180, size: 456_789 + index * 3571)),
            ("sm", rendition(slug: slug, name: "sm", width: 220, height: 124, size: 98_765 + index * 1013)),
          ])
        ),
        ("created_at", .string("2024-0\(index % 9 + 1)-1\(index % 10)T12:00:00Z")),
      ])
    }

    private func rendition(slug: String, name: String, width: Int, height: Int, size: Int) -> JSONText {
      let base = "https://static.klipy.demo/gifs/\(slug)/\(name)"
      return .object([
        (
          "gif",
          .object([
            ("url", .string(base + ".gif")), ("width", .int(width)), ("height", .int(height)), ("size", .int(size)),
          ])
        ),
        (
          "webp",
          .object([
            ("url", .string(base + ".webp")), ("width", .int(width)), ("height", .int(height)),
            ("size", .int(size / 3)),
          ])
        ),
      ])
    }
  }

  /// First id: 2^53 + 1, the smallest integer a Double cannot hold.
  static let firstID: UInt64 = 9_007_199_254_740_993

  private static let bases: [(slug: String, title: String, tags: [String])] = [
    ("cafe-dance", "Café ☕ dance", ["coffee", "dance", "café"]),
    ("neko-jump", "猫 jump", ["cat", "jump", "猫"]),
    ("happy-dog", "Happy dog 🐶", ["dog", "happy"]),
    ("party-parrot", "Party parrot 🦜", ["bird", "party"]),
    ("mind-blown", "Mind blown 🤯", ["wow", "reaction"]),
    ("thumbs-up", "Thumbs up 👍", ["yes", "reaction"]),
    ("cat-typing", "Cat typing ⌨️", ["cat", "work", "keyboard"]),
    ("nandu-run", "Ñandú run", ["bird", "run"]),
    ("zurich-tram", "Zürich tram 🚋", ["travel", "tram"]),
    ("creme-brulee", "Crème brûlée fail", ["food", "fail"]),
    ("sushi-roll", "寿司 roll 🍣", ["food", "sushi"]),
    ("rocket-launch", "Rocket launch 🚀", ["space", "launch"]),
    ("facepalm", "Facepalm 🤦", ["reaction", "fail"]),
    ("slow-clap", "Slow clap 👏", ["reaction", "applause"]),
    ("kitten-nap", "Kitten nap 😴", ["cat", "sleep"]),
    ("moscow-snow", "Снег в Москве ❄️", ["snow", "winter"]),
    ("greek-salad", "Χωριάτικη salad 🥗", ["food", "greek"]),
    ("arabic-hello", "مرحبا wave 👋", ["hello", "wave"]),
    ("dancing-banana", "Dancing banana 🍌", ["dance", "fruit"]),
    ("shrug", "Shrug ¯\\_(ツ)_/¯", ["reaction", "shrug"]),
    ("quote-tab", "Tab\tand \"quotes\"", ["escape", "test"]),
    ("family-emoji", "Family 👨‍👩‍👧‍👦 hug", ["family", "hug"]),
    ("flag-wave", "Flags 🇨🇭🇯🇵 wave", ["flag", "wave"]),
    ("cat-vs-cucumber", "Cat vs cucumber 🥒", ["cat", "funny"]),
    ("deploy-friday", "Deploy on Friday 🔥", ["work", "fire"]),
  ]

  private static let ratings = ["1.10", "4.50", "3.00", "2.75", "5.00", "0.90"]
  private static let durations = ["2.50", "1.20", "3.00", "0.80", "4.10"]

  /// All items, in catalogue order.
  let items: [Item]

  /// The standard 50-item catalogue.
  init() {
    var items: [Item] = []
    for variant in 0..<2 {
      for (offset, base) in Self.bases.enumerated() {
        let index = variant * Self.bases.count + offset
        items.append(
          Item(
            id: String(Self.firstID + UInt64(index) * 2),
            slug: variant == 0 ? base.slug : base.slug + "-2",
            title: variant == 0 ? base.title : base.title + " (again)",
            tags: base.tags,
            rating: Self.ratings[index % Self.ratings.count],
            duration: Self.durations[index % Self.durations.count],
            index: index))
      }
    }
    self.items = items
  }

  /// The item with `slug`, if any.
  func item(slug: String) -> Item? {
    items.first { $0.slug == slug }
  }

  /// Items whose title, slug or tags contain `query`, ignoring case.
  func search(_ query: String) -> [Item] {
    let needle = query.lowercased()
    // An empty query finds nothing (as it did when this was Foundation's `contains`).
    guard !needle.isEmpty else { return [] }
    return items.filter { item in
      item.title.lowercased().contains(needle) || item.slug.contains(needle)
        || item.tags.contains { $0.lowercased().contains(needle) }
    }
  }
}
