import CStaticGlibc
import Testing

/// The resolver set-up a static apx makes at start (Sources/CStaticGlibc) leaves a dynamically
/// linked process, like this test runner, as glibc configured it. The static side is checked on
/// the installed binary: scripts/check-installed.sh calls `apx demo` by the name `localhost`.
@Suite struct StaticGlibcTests {
  @Test func aDynamicProcessKeepsGlibcsResolverConfiguration() {
    #expect(apx_is_statically_linked() == 0)
    #expect(apx_use_builtin_host_resolvers() == 0)
  }
}
