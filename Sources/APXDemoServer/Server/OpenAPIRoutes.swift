import APXServing
import Hummingbird

/// `GET /openapi.json`: the demo backend describes its REST and SSE APIs
/// (books imports, the flaky retry playground, GIFs) in OpenAPI 3.1, as a
/// real API publishes its description. Written as data here: this target
/// must not use apx's own modules. The server URL is relative ("/"), so a
/// client resolves it against wherever it fetched the document.
struct OpenAPIRoutes: Sendable {
  /// Adds the route to `router`.
  func register(on router: Router<ServerRequestContext>) {
    router.get("openapi.json") { _, _ in
      DemoResponse.text(Self.document, contentType: "application/json; charset=utf-8")
    }
  }

  static let document = """
    {
      "openapi": "3.1.0",
      "info": {
        "title": "Demo",
        "version": "2.0.0",
        "description": "The apx demo backend: CSV book imports with progress over server-sent events, a retry playground and a paginated GIF API."
      },
      "servers": [{ "url": "/", "description": "This demo server" }],
      "security": [{ "demoOAuth": ["books:read", "books:write"] }],
      "paths": {
        "/api/v2/capabilities": {
          "get": {
            "operationId": "capabilities.get",
            "summary": "What the server accepts: upload size limit, formats, required columns.",
            "responses": {
              "200": { "description": "The capabilities.", "content": { "application/json": { "schema": { "type": "object" } } } },
              "401": { "$ref": "#/components/responses/Unauthorized" }
            }
          }
        },
        "/api/v2/imports": {
          "post": {
            "operationId": "imports.create",
            "summary": "Upload a CSV (header row with a 'title' column) and start an import job.",
            "parameters": [
              { "name": "Idempotency-Key", "in": "header", "description": "Replays the first job created with this key.", "schema": { "type": "string" } },
              { "name": "row_delay_ms", "in": "query", "description": "Milliseconds of simulated work per row.", "schema": { "type": "number", "minimum": 0, "maximum": 60000 } },
              { "name": "drop_every", "in": "query", "description": "Close the job's event stream after every N events.", "schema": { "type": "integer", "minimum": 1 } },
              { "name": "drop_mode", "in": "query", "description": "How a stream is dropped.", "schema": { "type": "string", "enum": ["close", "abort"] } },
              { "name": "refuse_stream", "in": "query", "description": "Answer the event stream with 503, and refuse the V1 WebSocket, so clients must poll.", "schema": { "type": "boolean" } },
              { "name": "fail_at", "in": "query", "description": "Fail the job when this fraction of rows is done.", "schema": { "type": "number", "minimum": 0, "maximum": 1 } }
            ],
            "requestBody": {
              "required": true,
              "content": {
                "multipart/form-data": {
                  "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": { "file": { "type": "string", "format": "binary", "description": "The CSV file." } }
                  },
                  "encoding": { "file": { "contentType": "text/csv" } }
                },
                "text/csv": { "schema": { "type": "string" } }
              }
            },
            "responses": {
              "202": { "description": "The job was created (or replayed).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ImportAccepted" } } } },
              "400": { "$ref": "#/components/responses/Problem" },
              "401": { "$ref": "#/components/responses/Unauthorized" },
              "413": { "$ref": "#/components/responses/Problem" },
              "415": { "$ref": "#/components/responses/Problem" }
            }
          }
        },
        "/api/v2/imports/{job_id}": {
          "parameters": [{ "$ref": "#/components/parameters/JobID" }],
          "get": {
            "operationId": "imports.status",
            "summary": "An import job's status, progress and, once done, its result.",
            "responses": {
              "200": { "description": "The job.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ImportStatus" } } } },
              "401": { "$ref": "#/components/responses/Unauthorized" },
              "404": { "$ref": "#/components/responses/Problem" }
            }
          }
        },
        "/api/v2/imports/{job_id}/stream": {
          "parameters": [{ "$ref": "#/components/parameters/JobID" }],
          "get": {
            "operationId": "imports.watch",
            "summary": "Follow an import's events: queued, started, progress, complete or error.",
            "parameters": [
              { "name": "Last-Event-ID", "in": "header", "description": "Resume after this event id.", "schema": { "type": "string" } }
            ],
            "responses": {
              "200": { "description": "Server-sent events; each data field is a JSON object.", "content": { "text/event-stream": { "schema": { "type": "string" } } } },
              "401": { "$ref": "#/components/responses/Unauthorized" },
              "404": { "$ref": "#/components/responses/Problem" },
              "503": { "$ref": "#/components/responses/Problem" }
            }
          }
        },
        "/api/v2/flaky": {
          "get": {
            "operationId": "flaky.get",
            "summary": "Fails the first `fail` calls per key with `status` and Retry-After, then answers 200.",
            "parameters": [
              { "name": "key", "in": "query", "required": true, "description": "Counter name.", "schema": { "type": "string" } },
              { "name": "fail", "in": "query", "description": "How many attempts fail first.", "schema": { "type": "integer", "default": 1 } },
              { "name": "status", "in": "query", "description": "Status of the failing attempts.", "schema": { "type": "integer", "enum": [503, 429] } },
              { "name": "retry_after", "in": "query", "description": "Retry-After seconds on failures.", "schema": { "type": "integer" } }
            ],
            "responses": {
              "200": { "description": "The attempt count.", "content": { "application/json": { "schema": { "type": "object" } } } },
              "429": { "$ref": "#/components/responses/Problem" },
              "503": { "$ref": "#/components/responses/Problem" }
            }
          }
        },
        "/api/v1/{api_key}/gifs/trending": {
          "parameters": [{ "$ref": "#/components/parameters/GifKey" }],
          "get": {
            "operationId": "gifs.trending",
            "summary": "Trending GIFs, one page at a time.",
            "security": [],
            "parameters": [{ "$ref": "#/components/parameters/Page" }, { "$ref": "#/components/parameters/PerPage" }],
            "responses": { "200": { "$ref": "#/components/responses/GifPage" }, "401": { "$ref": "#/components/responses/Problem" } }
          }
        },
        "/api/v1/{api_key}/gifs/search": {
          "parameters": [{ "$ref": "#/components/parameters/GifKey" }],
          "get": {
            "operationId": "gifs.search",
            "summary": "GIFs whose title or tags contain q.",
            "security": [],
            "parameters": [
              { "name": "q", "in": "query", "required": true, "description": "Search text.", "schema": { "type": "string" } },
              { "$ref": "#/components/parameters/Page" },
              { "$ref": "#/components/parameters/PerPage" }
            ],
            "responses": { "200": { "$ref": "#/components/responses/GifPage" }, "400": { "$ref": "#/components/responses/Problem" } }
          }
        },
        "/api/v1/{api_key}/gifs/{slug}/view": {
          "parameters": [{ "$ref": "#/components/parameters/GifKey" }, { "$ref": "#/components/parameters/Slug" }],
          "post": {
            "operationId": "gifs.view",
            "summary": "Record a view of a GIF.",
            "security": [],
            "responses": { "204": { "description": "Recorded." }, "404": { "$ref": "#/components/responses/Problem" } }
          }
        },
        "/api/v1/{api_key}/gifs/{slug}/share": {
          "parameters": [{ "$ref": "#/components/parameters/GifKey" }, { "$ref": "#/components/parameters/Slug" }],
          "post": {
            "operationId": "gifs.share",
            "summary": "Record a share of a GIF.",
            "security": [],
            "responses": { "204": { "description": "Recorded." }, "404": { "$ref": "#/components/responses/Problem" } }
          }
        }
      },
      "components": {
        "securitySchemes": {
          "demoOAuth": {
            "type": "oauth2",
            "description": "Client credentials: demo-client / demo-secret.",
            "flows": {
              "clientCredentials": {
                "tokenUrl": "/oauth/token",
                "scopes": { "books:read": "Read imports.", "books:write": "Create imports." }
              }
            }
          }
        },
        "parameters": {
          "JobID": { "name": "job_id", "in": "path", "required": true, "description": "The job_id returned by imports.create.", "schema": { "type": "string" } },
          "GifKey": { "name": "api_key", "in": "path", "required": true, "description": "The API key (demo-key).", "schema": { "type": "string" } },
          "Slug": { "name": "slug", "in": "path", "required": true, "description": "The GIF's slug, e.g. cafe-dance.", "schema": { "type": "string" } },
          "Page": { "name": "page", "in": "query", "description": "Page number, from 1.", "schema": { "type": "integer", "minimum": 1, "default": 1 } },
          "PerPage": { "name": "per_page", "in": "query", "description": "Items per page (1-50).", "schema": { "type": "integer", "minimum": 1, "maximum": 50, "default": 24 } }
        },
        "responses": {
          "Problem": { "description": "An error.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Problem" } } } },
          "Unauthorized": { "description": "A missing, unknown or expired bearer token.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Problem" } } } },
          "GifPage": { "description": "One page of GIFs.", "content": { "application/json": { "schema": { "type": "object", "properties": { "has_next": { "type": "boolean" } } } } } }
        },
        "schemas": {
          "Problem": { "type": "object", "properties": { "error": { "type": "object", "properties": { "code": { "type": "string" }, "message": { "type": "string" } } } } },
          "ImportAccepted": {
            "type": "object",
            "required": ["job_id", "status", "sse_url", "status_url", "total_rows"],
            "properties": {
              "job_id": { "type": "string" },
              "status": { "type": "string", "enum": ["queued", "processing", "complete", "failed"] },
              "sse_url": { "type": "string" },
              "status_url": { "type": "string" },
              "total_rows": { "type": "integer" }
            }
          },
          "ImportStatus": {
            "type": "object",
            "required": ["job_id", "status", "progress", "processed_rows", "total_rows"],
            "properties": {
              "job_id": { "type": "string" },
              "status": { "type": "string", "enum": ["queued", "processing", "complete", "failed"] },
              "progress": { "type": "number", "minimum": 0, "maximum": 1 },
              "processed_rows": { "type": "integer" },
              "total_rows": { "type": "integer" },
              "result": { "type": "object" },
              "error": { "type": "object", "properties": { "message": { "type": "string" } } }
            }
          }
        }
      }
    }
    """
}
