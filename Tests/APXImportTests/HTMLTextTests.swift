import Testing

@testable import APXImport

/// Descriptions written in HTML become plain text in an imported registry.
@Suite struct HTMLTextTests {
  @Test func tagsGoAndParagraphsStayApart() {
    let text = HTMLText.plain(#"<p>Creates a <a href="/docs">customer</a> with <code>email</code>.</p><p>More.</p>"#)
    #expect(text == "\n\nCreates a customer with email.\n\n\n\nMore.\n\n")
    #expect(Text.summary(#"<p>Creates a <code>customer</code>.</p><p>Second paragraph.</p>"#) == "Creates a customer.")
  }

  @Test func referencesAreDecoded() {
    #expect(HTMLText.plain("a &amp; b &lt;c&gt; &#39;d&#x27; &quot;e&quot;") == #"a & b <c> 'd' "e""#)
  }

  @Test func textThatOnlyLooksLikeHTMLIsKept() {
    #expect(HTMLText.plain("a < b && c > d; x &unknown; &#0; 3<4") == "a < b && c > d; x &unknown; &#0; 3<4")
    #expect(HTMLText.plain("no markup") == "no markup")
  }
}
