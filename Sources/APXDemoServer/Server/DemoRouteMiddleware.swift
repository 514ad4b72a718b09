import APXServing
import Hummingbird

/// Counts every request per route in the stats and turns thrown errors into JSON error bodies.
struct DemoRouteMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext
  let stats: StatsRecorder
  /// The methods of every route, for 405 answers.
  let methods: RouteMethods

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      let response = try await next(request, context)
      record(request, context)
      return response
    } catch let error as DemoError {
      record(request, context)
      return error.response
    } catch let error as GifError {
      record(request, context)
      return error.response
    } catch let error as HTTPError {
      record(request, context)
      let allowed = error.status == .notFound ? methods.allowed(path: request.uri.path) : []
      if !allowed.isEmpty {
        return DemoError(
          status: .methodNotAllowed, code: "method_not_allowed",
          message: "\(request.method) is not allowed on \(request.uri.path); use \(allowed.joined(separator: " or "))",
          headers: [.allow: allowed.joined(separator: ", ")]
        ).response
      }
      let code = error.status == .notFound ? "not_found" : "http_\(error.status.code)"
      let message =
        error.status == .notFound
        ? "no route for \(request.method) \(request.uri.path)"
        : (error.body ?? error.status.reasonPhrase)
      return DemoError(status: error.status, code: code, message: message, headers: error.headers).response
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      record(request, context)
      return DemoError(status: .internalServerError, code: "internal", message: "\(error)").response
    }
  }

  private func record(_ request: Request, _ context: Context) {
    stats.recordRequest(route: "\(request.method) \(context.endpointPath ?? "NotFound")")
  }
}
