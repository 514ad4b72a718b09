/// Keeps a resumed stream from printing an event twice.
///
/// A server that honours `Last-Event-ID` sends only newer events; one that
/// does not replays some or all of the old ones. After each resume the
/// deduplicator drops events whose id was already delivered, until the first
/// event with a new id arrives; from then on ids are not checked (an id may
/// legitimately repeat, since an event without an `id:` field keeps the last one).
///
/// Memory is bounded: only the last `capacity` distinct ids are remembered.
struct SSEDeduplicator: Sendable {
  /// How many recent ids are remembered.
  let capacity: Int
  private var ring: [String] = []
  private var nextSlot = 0
  private var seen: Set<String> = []
  /// The id most recently recorded (events without their own id repeat it).
  private var lastRecorded: String?
  /// True between a reconnection and the first event with a new id.
  private(set) var resuming = false

  init(capacity: Int = 16_384) {
    self.capacity = max(1, capacity)
  }

  /// A new connection resumes the stream: check ids again.
  mutating func beginResume() {
    resuming = !seen.isEmpty
  }

  /// Whether an event with `id`, arriving now, was already delivered.
  mutating func isDuplicate(_ id: String?) -> Bool {
    guard resuming else { return false }
    if let id, seen.contains(id) { return true }
    // A new id (or an event without id, which cannot be matched): the replay is over.
    resuming = false
    return false
  }

  /// Remembers that an event with `id` was delivered.
  mutating func record(_ id: String?) {
    guard let id, id != lastRecorded else { return }
    lastRecorded = id
    guard seen.insert(id).inserted else { return }
    if ring.count < capacity {
      ring.append(id)
    } else {
      seen.remove(ring[nextSlot])
      ring[nextSlot] = id
      nextSlot = (nextSlot + 1) % capacity
    }
  }
}
