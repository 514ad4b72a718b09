/// The server side of SyncDocuments: each document's current version, with optimistic
/// concurrency (a change must be based on the version the server holds).
actor DocumentVersions {
  private var versions: [String: Int64] = [:]

  /// Creates an empty set of documents.
  init() {}

  /// Applies one change and says whether it was accepted, with the resulting version.
  func apply(_ change: Classnotes_V1_DocumentChange) -> Classnotes_V1_DocumentAck {
    var ack = Classnotes_V1_DocumentAck()
    ack.documentID = change.documentID
    let current = self.versions[change.documentID] ?? 0
    ack.version = current

    func refuse(_ reason: String) -> Classnotes_V1_DocumentAck {
      ack.accepted = false
      ack.reason = reason
      return ack
    }

    if change.documentID.isEmpty {
      return refuse("document_id must not be empty")
    }
    switch change.operation {
    case .upsert:
      guard change.baseVersion == current else {
        return refuse(
          "conflict: change is based on version \(change.baseVersion) but the server has "
            + "version \(current); fetch the document and retry"
        )
      }
      ack.version = current + 1
      self.versions[change.documentID] = current + 1
    case .delete:
      guard current > 0 else {
        return refuse("document '\(change.documentID)' does not exist")
      }
      self.versions[change.documentID] = nil
      ack.version = 0
    case .unspecified, .UNRECOGNIZED:
      return refuse("operation must be UPSERT or DELETE")
    }
    ack.accepted = true
    return ack
  }
}
