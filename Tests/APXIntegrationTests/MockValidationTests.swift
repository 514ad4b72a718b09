import APXCore
import Foundation
import Testing

/// What `apx mock` checks in a request beyond types: string formats, patterns, exclusive
/// bounds and `multipleOf`, and URL-encoded and multipart form fields.
@Suite("apx mock request validation", .timeLimit(.minutes(5)))
struct MockValidationTests {
  static func description() throws -> String {
    try temporaryFile(
      "forms.json",
      #"""
      {"openapi": "3.0.3", "info": {"title": "Forms", "version": "1"},
       "paths": {
        "/people": {"post": {"operationId": "addPerson",
          "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Person"}}}},
          "responses": {"201": {"description": "made"}}}},
        "/login": {"post": {"operationId": "login",
          "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {"schema": {
            "type": "object", "required": ["user", "age"],
            "properties": {"user": {"type": "string"}, "age": {"type": "integer"}}}}}},
          "responses": {"204": {"description": "in"}}}},
        "/photos": {"post": {"operationId": "upload",
          "requestBody": {"required": true, "content": {"multipart/form-data": {"schema": {
            "type": "object", "required": ["photo", "album"],
            "properties": {"photo": {"type": "string", "format": "binary"}, "album": {"type": "integer"}}}}}},
          "responses": {"204": {"description": "kept"}}}}
       },
       "components": {"schemas": {"Person": {"type": "object", "properties": {
         "email": {"type": "string", "format": "email"},
         "born": {"type": "string", "format": "date"},
         "seen": {"type": "string", "format": "date-time"},
         "code": {"type": "string", "pattern": "^[A-Z]{2}\\d$"},
         "weight": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "multipleOf": 0.5},
         "age": {"type": "integer", "format": "int32"}}}}}}
      """#)
  }

  @Test func formatsPatternsAndBoundsAreCheckedInAJSONBody() async throws {
    try await MockProcess.with(["--openapi", try Self.description()]) { mock in
      let port = try mock.port()
      let json = ["Content-Type": "application/json"]
      func post(_ body: String) async throws -> LoopbackHTTP.Answer {
        try await LoopbackHTTP.request(port: port, "POST", "/people", headers: json, body: body)
      }
      let valid = try await post(
        #"{"email": "a@b.example", "born": "2000-02-29", "seen": "2024-05-01T10:00:00.5+02:00", "code": "AB1", "weight": 2.5, "age": 30}"#
      )
      #expect(valid.status == 201, "\(valid.text)")
      let cases: [(String, String)] = [
        (#"{"email": "not an address"}"#, "email"),
        (#"{"born": "2001-02-29"}"#, "born"),
        (#"{"seen": "2024-05-01 10:00:00"}"#, "seen"),
        (#"{"code": "ab1"}"#, "code"),
        (#"{"weight": 0}"#, "weight"),
        (#"{"weight": 1.2}"#, "weight"),
        (#"{"age": 3000000000}"#, "age"),
      ]
      for (body, field) in cases {
        let r = try await post(body)
        #expect(r.status == 400, "\(body): \(r.text)")
        #expect(r.json?["field"] == .string(field), "\(body): \(r.text)")
      }
      // A problem names the field and the rule, never the value (it may be a secret).
      let secret = try await post(#"{"code": "s3cr3t-value"}"#)
      #expect(secret.status == 400 && !secret.text.contains("s3cr3t-value"), "\(secret.text)")
    }
  }

  @Test func urlEncodedAndMultipartFormsAreChecked() async throws {
    try await MockProcess.with(["--openapi", try Self.description()]) { mock in
      let port = try mock.port()
      let form = ["Content-Type": "application/x-www-form-urlencoded"]
      let ok = try await LoopbackHTTP.request(port: port, "POST", "/login", headers: form, body: "user=ann+lee&age=40")
      #expect(ok.status == 204, "\(ok.text)")
      let missing = try await LoopbackHTTP.request(port: port, "POST", "/login", headers: form, body: "user=ann")
      #expect(missing.status == 400 && missing.json?["field"] == .string("age"), "\(missing.text)")
      let wrong = try await LoopbackHTTP.request(port: port, "POST", "/login", headers: form, body: "user=ann&age=old")
      #expect(wrong.status == 400 && wrong.json?["field"] == .string("age"), "\(wrong.text)")
      let asJSON = try await LoopbackHTTP.request(
        port: port, "POST", "/login", headers: ["Content-Type": "application/json"], body: #"{"user": "ann"}"#)
      #expect(asJSON.status == 400 && asJSON.json?["field"] == .string("body"), "\(asJSON.text)")

      let multipart = ["Content-Type": "multipart/form-data; boundary=XyZ"]
      func parts(_ album: String?, file: Bool) -> String {
        var body = ""
        if let album { body += "--XyZ\r\nContent-Disposition: form-data; name=\"album\"\r\n\r\n\(album)\r\n" }
        if file {
          body += "--XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\n"
          body += "Content-Type: image/png\r\n\r\n\u{1}PNG\r\n"
        }
        return body + "--XyZ--\r\n"
      }
      let kept = try await LoopbackHTTP.request(
        port: port, "POST", "/photos", headers: multipart, body: parts("7", file: true))
      #expect(kept.status == 204, "\(kept.text)")
      let noFile = try await LoopbackHTTP.request(
        port: port, "POST", "/photos", headers: multipart, body: parts("7", file: false))
      #expect(noFile.status == 400 && noFile.json?["field"] == .string("photo"), "\(noFile.text)")
      let badAlbum = try await LoopbackHTTP.request(
        port: port, "POST", "/photos", headers: multipart, body: parts("seven", file: true))
      #expect(badAlbum.status == 400 && badAlbum.json?["field"] == .string("album"), "\(badAlbum.text)")
      let unclosed = try await LoopbackHTTP.request(
        port: port, "POST", "/photos", headers: multipart,
        body: "--XyZ\r\nContent-Disposition: form-data; name=\"album\"\r\n\r\n7")
      #expect(unclosed.status == 400 && unclosed.json?["field"] == .string("body"), "\(unclosed.text)")
    }
  }

  @Test func aCredentialParameterOfTheWrongTypeIsNotEchoedBack() async throws {
    let description = try temporaryFile(
      "keys.json",
      #"""
      {"openapi": "3.0.3", "info": {"title": "Keys", "version": "1"},
       "paths": {"/items": {"get": {"operationId": "items", "parameters": [
         {"name": "api_key", "in": "query", "required": true, "schema": {"type": "integer"}},
         {"name": "X-Auth-Token", "in": "header", "schema": {"type": "integer"}},
         {"name": "limit", "in": "query", "schema": {"type": "integer"}}],
         "responses": {"200": {"description": "the items",
           "content": {"application/json": {"schema": {"type": "array", "items": {"type": "string"}}}}}}}}}}
      """#)
    try await MockProcess.with(["--openapi", description]) { mock in
      let port = try mock.port()
      let key = try await LoopbackHTTP.request(port: port, "GET", "/items?api_key=s3cr3t-key")
      #expect(key.status == 400 && key.json?["field"] == .string("api_key"), "\(key.text)")
      #expect(!key.text.contains("s3cr3t-key"), "\(key.text)")
      let header = try await LoopbackHTTP.request(
        port: port, "GET", "/items?api_key=1", headers: ["X-Auth-Token": "s3cr3t-token"])
      #expect(header.status == 400 && header.json?["field"] == .string("X-Auth-Token"), "\(header.text)")
      #expect(!header.text.contains("s3cr3t-token"), "\(header.text)")
      // An ordinary parameter still shows what was sent, which is what a client needs to fix it.
      let limit = try await LoopbackHTTP.request(port: port, "GET", "/items?api_key=1&limit=ten")
      #expect(limit.status == 400 && limit.text.contains("ten"), "\(limit.text)")
    }
  }
}
