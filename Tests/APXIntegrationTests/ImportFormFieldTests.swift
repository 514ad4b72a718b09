import APXTestSupport
import Foundation
import Testing

/// Form fields keep what the description says of them: Twilio's real description
/// (form-urlencoded bodies whose schemas list `required` fields, with patterns and lengths)
/// imports them required and constrained; `apx call` refuses a value that breaks a constraint
/// before sending, and `apx mock --openapi` refuses a request without a required field.
@Suite("apx import: form fields")
struct ImportFormFieldTests {
  static func twilio(into dir: URL) async throws -> String {
    let docs = try await ImportTests.documents(into: dir)
    return try #require(docs.first { $0.name == "twilio-api-v2010" }).path
  }

  static func createMessage(_ registry: URL) throws -> [String: [String: Any]] {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: registry)) as? [String: Any])
    let endpoints = try #require(object["endpoints"] as? [String: [String: Any]])
    let create = try #require(endpoints["create-message"])
    return try #require(create["params"] as? [String: [String: Any]])
  }

  @Test func requiredFieldsAndConstraintsSurviveTheImport() async throws {
    let dir = try ImportTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let source = try await Self.twilio(into: dir)
    let out = dir.appendingPathComponent("out")
    let r = try await APXProcess.run(["import", "openapi", source, "--api", "twilio", "--out", out.path], timeout: 120)
    #expect(r.status == 0, "\(r.stderr)")
    let registry = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("twilio.json")))
        as? [String: Any])
    let endpoints = try #require(registry["endpoints"] as? [String: [String: Any]])
    var requiredFormFields = 0
    for endpoint in endpoints.values {
      for p in (endpoint["params"] as? [String: [String: Any]] ?? [:]).values
      where p["in"] as? String == "form" && p["required"] as? Bool == true {
        requiredFormFields += 1
      }
    }
    #expect(requiredFormFields == 47)
    let params = try Self.createMessage(out.appendingPathComponent("twilio.json"))
    #expect(params["To"]?["required"] as? Bool == true)
    #expect(params["To"]?["format"] as? String == "phone-number")
    let sid = try #require(params["ApplicationSid"])
    #expect(sid["pattern"] as? String == "^AP[0-9a-fA-F]{32}$")
    #expect(sid["min_length"] as? Int == 34)

    // Refused before sending: nothing listens on port 9.
    let call = try await APXProcess.run(
      [
        "call", "twilio.create-message", "--registry", out.path, "--base-url", "http://127.0.0.1:9",
        "AccountSid=AC00000000000000000000000000000000", "To=+15550001111", "ApplicationSid=XY123",
      ], environment: ["TWILIO_USERNAME": "u", "TWILIO_PASSWORD": "p"], timeout: 60)
    #expect(call.status == 2, "\(call.stderr)")
    #expect(call.stderr.contains("ApplicationSid must be at least 34 characters long"), "\(call.stderr)")
  }

  @Test func theMockRefusesAFormWithoutARequiredField() async throws {
    let dir = try ImportTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let source = try await Self.twilio(into: dir)
    try await MockProcess.with(["--openapi", source]) { mock in
      let port = try mock.port()
      let path = "/2010-04-01/Accounts/AC00000000000000000000000000000000/Messages.json"
      let form = ["Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic dTpw"]
      let missing = try await LoopbackHTTP.request(port: port, "POST", path, headers: form, body: "Body=hello")
      #expect(missing.status == 400, "\(missing.text)")
      #expect(missing.text.contains("To"), "\(missing.text)")
      let badSid = try await LoopbackHTTP.request(
        port: port, "POST", path, headers: form, body: "To=%2B15550001111&Body=hi&ApplicationSid=XY")
      #expect(badSid.status == 400, "\(badSid.text)")
      #expect(badSid.text.contains("ApplicationSid"), "\(badSid.text)")
      let sent = try await LoopbackHTTP.request(
        port: port, "POST", path, headers: form, body: "To=%2B15550001111&Body=hi")
      #expect(sent.status == 201, "\(sent.text)")
    }
  }
}
