import APXCore
import APXRuntime
import Testing

@testable import apx

@Suite("apx call API.ENDPOINT: what a target that names no API is told")
struct PreparedCallTests {
  @Test func aTargetThatNamesNoAPIIsToldHowToCallAURL() {
    let registry = RegistryFiles(directories: ["/nonexistent/apx-registry"])
    let error = #expect(throws: APXError.self) {
      _ = try PreparedCall.registry(target: "example.com", items: [], registry: registry)
    }
    #expect(error?.reason == .unknownAPI)
    #expect(error?.hint?.hasSuffix("to call a URL, write it with a scheme: apx call http://example.com") == true)
  }

  @Test func aTargetThatIsNotAPIDotEndpointIsNotToldAboutURLs() {
    let registry = RegistryFiles(directories: ["/nonexistent/apx-registry"])
    let error = #expect(throws: APXError.self) {
      _ = try PreparedCall.registry(target: "example", items: [], registry: registry)
    }
    #expect(error?.hint?.contains("apx call http://") == false)
  }
}
