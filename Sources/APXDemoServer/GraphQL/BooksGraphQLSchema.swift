import GraphQL
import OrderedCollections

/// The demo's GraphQL schema over the books catalogue and the CSV imports, executed by
/// GraphQLSwift:
///
/// ```graphql
/// type Query {
///   book(id: ID!): Book                          # null for an id outside the catalogue
///   books(first: Int = 20, offset: Int = 0): [Book!]!
///   importJob(id: ID!): ImportJob                 # null for an unknown job
/// }
/// type Mutation { startImport(csv: String!, rowDelayMs: Int): ImportJob! }
/// type Subscription { importProgress(id: ID!): ImportJob! }  # the job now, then each change
/// type Book { id: ID!  title: String! }
/// type ImportJob { id: ID!  status: ImportStatus!  progress: Float!  processedRows: Int!
///                  totalRows: Int!  error: String }
/// enum ImportStatus { QUEUED PROCESSING COMPLETE FAILED }
/// ```
/// Objects are dictionaries, read by GraphQLSwift's default resolver.
enum BooksGraphQLSchema {
  /// Books in the catalogue (`/api/v2/catalogue/*` serves the same `Book n` titles).
  static let catalogueSize = 45

  static func make(imports: ImportStore, options: DemoServerOptions) throws -> GraphQLSchema {
    let book = try GraphQLObjectType(
      name: "Book", description: "A book of the catalogue.",
      fields: [
        "id": GraphQLField(type: GraphQLNonNull(GraphQLID)),
        "title": GraphQLField(type: GraphQLNonNull(GraphQLString)),
      ])
    let status = try GraphQLEnumType(
      name: "ImportStatus",
      values: [
        "QUEUED": GraphQLEnumValue(value: "QUEUED"), "PROCESSING": GraphQLEnumValue(value: "PROCESSING"),
        "COMPLETE": GraphQLEnumValue(value: "COMPLETE"), "FAILED": GraphQLEnumValue(value: "FAILED"),
      ])
    let job = try GraphQLObjectType(
      name: "ImportJob", description: "A CSV import and its progress.",
      fields: [
        "id": GraphQLField(type: GraphQLNonNull(GraphQLID)),
        "status": GraphQLField(type: GraphQLNonNull(status)),
        "progress": GraphQLField(type: GraphQLNonNull(GraphQLFloat), description: "0 to 1."),
        "processedRows": GraphQLField(type: GraphQLNonNull(GraphQLInt)),
        "totalRows": GraphQLField(type: GraphQLNonNull(GraphQLInt)),
        "error": GraphQLField(type: GraphQLString, description: "Why a failed import failed."),
      ])
    let query = try GraphQLObjectType(
      name: "Query",
      fields: [
        "book": GraphQLField(
          type: book, description: "One book by id (1 to \(catalogueSize)); null for any other.",
          args: ["id": GraphQLArgument(type: GraphQLNonNull(GraphQLID))],
          resolve: { _, args, _, _ in
            guard let id = Int(args["id"].string ?? ""), (1...catalogueSize).contains(id) else { return nil }
            return bookObject(id)
          }),
        "books": GraphQLField(
          type: GraphQLNonNull(GraphQLList(GraphQLNonNull(book))), description: "A page of the catalogue.",
          args: [
            "first": GraphQLArgument(type: GraphQLInt, defaultValue: 20),
            "offset": GraphQLArgument(type: GraphQLInt, defaultValue: 0),
          ],
          resolve: { _, args, _, _ in
            let first = args["first"].int ?? 20
            let offset = args["offset"].int ?? 0
            guard (0...100).contains(first) else { throw BooksGraphQLFailure("first must be 0 to 100") }
            guard offset >= 0 else { throw BooksGraphQLFailure("offset must not be negative") }
            return (offset..<min(offset + first, catalogueSize)).map { bookObject($0 + 1) }
          }),
        "importJob": GraphQLField(
          type: job, description: "An import by id; null for an unknown one.",
          args: ["id": GraphQLArgument(type: GraphQLNonNull(GraphQLID))],
          resolve: { _, args, _, _ in imports.job(id: args["id"].string ?? "").map(jobObject) }),
      ])
    let mutation = try GraphQLObjectType(
      name: "Mutation",
      fields: [
        "startImport": GraphQLField(
          type: GraphQLNonNull(job), description: "Starts importing CSV text (a header row with a title column).",
          args: [
            "csv": GraphQLArgument(type: GraphQLNonNull(GraphQLString)),
            "rowDelayMs": GraphQLArgument(type: GraphQLInt, description: "Milliseconds spent per row."),
          ],
          resolve: { _, args, _, _ in
            var scan = CSVImportScanner()
            scan.consume(Array((args["csv"].string ?? "").utf8))
            scan.finish()
            var faults = ImportFaults(rowDelay: options.rowDelay)
            if let delay = args["rowDelayMs"].int {
              guard (0...10_000).contains(delay) else { throw BooksGraphQLFailure("rowDelayMs must be 0 to 10000") }
              faults.rowDelay = Double(delay) / 1000
            }
            let created = imports.createJob(idempotencyKey: nil) { ImportJob(id: $0, scan: scan, faults: faults) }
            return jobObject(created.job)
          })
      ])
    let subscription = try GraphQLObjectType(
      name: "Subscription",
      fields: [
        "importProgress": GraphQLField(
          type: GraphQLNonNull(job),
          description: "An import's state now, then at each change, until it completes or fails.",
          args: ["id": GraphQLArgument(type: GraphQLNonNull(GraphQLID))],
          resolve: { source, _, _, _ in source },
          subscribe: { _, args, _, _ in
            let id = args["id"].string ?? ""
            // A GraphQLError keeps its message where the subscription is refused (a plain error would not).
            guard let found = imports.job(id: id) else { throw GraphQLError(message: "no import job with id '\(id)'") }
            return progress(of: found)
          })
      ])
    return try GraphQLSchema(query: query, mutation: mutation, subscription: subscription)
  }

  /// The job's state as `jobObject`s: now, then each time its status or row count changes,
  /// ending with its final state.
  static func progress(of job: ImportJob) -> AsyncThrowingStream<any Sendable, any Error> {
    AsyncThrowingStream { continuation in
      let task = Task {
        var last: (String, Int)?
        var cursor = 0
        while !Task.isCancelled {
          let (events, finished) = job.events(after: cursor)
          cursor += events.count
          let state = job.snapshot
          if last == nil || last! != (state.status.rawValue, state.processedRows) {
            last = (state.status.rawValue, state.processedRows)
            continuation.yield(jobObject(job))
          }
          if finished { break }
          if events.isEmpty {
            do {
              try await Task.sleep(for: ImportStream.pollInterval)
            } catch {
              break
            }
          }
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  static func bookObject(_ id: Int) -> [String: any Sendable] {
    ["id": String(id), "title": "Book \(id)"]
  }

  static func jobObject(_ job: ImportJob) -> [String: any Sendable] {
    let current = job.snapshot
    var object: [String: any Sendable] = [
      "id": job.id, "status": current.status.rawValue.uppercased(),
      "progress": ImportJob.progress(processed: current.processedRows, total: job.totalRows),
      "processedRows": current.processedRows, "totalRows": job.totalRows,
    ]
    if let message = current.errorMessage { object["error"] = message }
    return object
  }
}

/// A resolver's refusal: GraphQLSwift reports it as a field error with the field's path and
/// location (a `GraphQLError` thrown by a resolver would keep an empty path).
struct BooksGraphQLFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
