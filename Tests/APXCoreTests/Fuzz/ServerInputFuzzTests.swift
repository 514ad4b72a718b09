import APXCore
import APXMock
import Foundation
import PropertyBased
import Testing

/// Mutation tests of the parsers that read what a server or a file hands apx: a HAR archive for
/// `apx mock --replay`, a `Set-Cookie` value, a multipart body the mock validates or the record
/// masks. For any input: no trap, no hang, and a refusal that says why.
@Suite(.timeLimit(.minutes(5)))
struct ServerInputFuzzTests {
  static let harCorpus = [
    #"{"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": [{"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "request": {"method": "GET", "url": "http://h/a?b=1", "httpVersion": "HTTP/1.1", "headers": [], "queryString": [{"name": "b", "value": "1"}], "cookies": [], "headersSize": -1, "bodySize": 0}, "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [{"name": "Content-Type", "value": "application/json"}], "cookies": [], "content": {"size": 2, "mimeType": "application/json", "text": "{}"}, "redirectURL": "", "headersSize": -1, "bodySize": 2}, "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}"#,
    #"{"log": {"entries": [{"request": {"method": "POST", "url": "/x"}, "response": {"status": 201, "content": {"text": "aGk=", "encoding": "base64"}}, "_apx": {"events": [{"time": 5}]}}]}}"#,
  ]

  @Test func harArchivesLoadOrSayWhy() async {
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(Self.harCorpus)) { bytes in
      Fuzz.note("har", bytes)
      do throws(APXError) {
        let exchanges = try HARReader.exchanges(bytes, name: "fuzz.har")
        #expect(exchanges.allSatisfy { (100...599).contains($0.status) }, "a status outside 100-599 is refused")
      } catch {
        #expect(!error.message.isEmpty)
      }
    }
  }

  static let cookieCorpus = [
    "sid=abc123; Path=/; HttpOnly; Secure; SameSite=Lax", "a=b; Domain=.example.com; Max-Age=3600",
    "x=y; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Domain=example.com", "n=; Max-Age=0", "k=v; Domain=com",
  ]

  @Test func setCookieValuesAreStoredOnlyForTheirSite() async {
    let url = CookieURL("https://api.example.com/v1/x")!
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(Self.cookieCorpus)) { bytes in
      Fuzz.note("cookie", bytes)
      var jar = CookieJar()
      jar.store([String(decoding: bytes, as: UTF8.self)], from: url, now: 1_800_000_000)
      #expect(jar.cookies.count <= 1)
      for cookie in jar.cookies {
        #expect(cookie.domain == "api.example.com" || cookie.domain == "example.com", "\(cookie.domain)")
      }
      _ = jar.header(for: url, now: 1_800_000_000)
    }
  }

  static let multipartCorpus = [
    "--XyZ\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nhunter2\r\n"
      + "--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.csv\"\r\nContent-Type: text/csv\r\n\r\n"
      + "a,b\r\n--XyZ--\r\n",
    "--XyZ\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\n\r\n--XyZ--",
  ]

  @Test func multipartBodiesAreReadOrRefusedWithAMessage() async {
    await propertyCheck(count: Fuzz.count, input: Fuzz.mutated(Self.multipartCorpus)) { bytes in
      Fuzz.note("multipart", bytes)
      do throws(MultipartBody.Malformed) {
        let fields = try MultipartBody.fields(bytes, boundary: "XyZ")
        #expect(fields.count <= bytes.count)
        #expect(fields.allSatisfy { ($0.text?.utf8.count ?? 0) <= bytes.count })
      } catch {
        #expect(!error.message.isEmpty)
      }
    }
  }
}
