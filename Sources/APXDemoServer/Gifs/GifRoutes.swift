import APXServing
import HTTPTypes
import Hummingbird

/// The demo GIF API: `/api/v1/{api_key}/gifs/...`, API key in the path.
struct GifRoutes: Sendable {
  /// The only valid API key.
  static let demoKey = "demo-key"
  /// Time one view takes, so that concurrent views overlap.
  static let viewDuration: Duration = .milliseconds(20)

  let catalogue: GifCatalogue
  let stats: StatsRecorder

  /// Adds the routes to `router`.
  func register(on router: Router<ServerRequestContext>) {
    let gifs = router.group("api/v1/{api_key}/gifs")
    gifs.get("trending") { request, context in
      try checkKey(context)
      return try page(catalogue.items, request)
    }
    gifs.get("search") { request, context in
      try checkKey(context)
      guard let query = request.query("q") else {
        throw GifError(status: .badRequest, message: "query parameter 'q' is required")
      }
      return try page(catalogue.search(query), request)
    }
    gifs.post("{slug}/view") { _, context in
      try checkKey(context)
      _ = try item(context)
      stats.beginView()
      var completed = false
      defer { stats.endView(completed: completed) }
      try await Task.sleep(for: Self.viewDuration)
      completed = true
      return DemoResponse.empty(.noContent)
    }
    gifs.post("{slug}/share") { _, context in
      try checkKey(context)
      _ = try item(context)
      stats.update { $0.shares += 1 }
      return DemoResponse.empty(.noContent)
    }
  }

  private func checkKey(_ context: ServerRequestContext) throws {
    guard context.parameters.get("api_key") == Self.demoKey else {
      throw GifError(status: .unauthorized, message: "invalid API key")
    }
  }

  private func item(_ context: ServerRequestContext) throws -> GifCatalogue.Item {
    let slug = context.parameters.get("slug") ?? ""
    guard let item = catalogue.item(slug: slug) else {
      throw GifError(status: .notFound, message: "no GIF with slug '\(slug)'")
    }
    return item
  }

  private func page(_ items: [GifCatalogue.Item], _ request: Request) throws -> Response {
    let page: Int
    let perPage: Int
    do {
      page = try request.intQuery("page", in: 1...100_000, default: 1)
      perPage = try request.intQuery("per_page", in: 1...50, default: 24)
    } catch let error as DemoError {
      throw GifError(status: .badRequest, message: error.message)
    }
    let start = min(items.count, (page - 1) * perPage)
    let end = min(items.count, start + perPage)
    return DemoResponse.json(
      .object([
        ("result", .bool(true)),
        (
          "data",
          .object([
            ("data", .array(items[start..<end].map(\.json))),
            ("current_page", .int(page)),
            ("per_page", .int(perPage)),
            ("has_next", .bool(end < items.count)),
          ])
        ),
      ]))
  }
}

/// A Klipy-style error: `{"result": false, "error": {"message": ...}}`.
struct GifError: Error, Sendable {
  let status: HTTPResponse.Status
  let message: String

  var response: Response {
    DemoResponse.json(
      .object([("result", .bool(false)), ("error", .object([("message", .string(message))]))]),
      status: status)
  }
}
