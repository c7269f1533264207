import LedgerlyWeb
import Testing

@Suite struct HTMLEscapingTests {
    @Test func escapesMarkupAndBothQuotes() {
        #expect(HTMLEscaping.escape("<script>alert('x') & \"y\"</script>{{ z }}") == "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;{{ z }}")
    }

    @Test func keepsOtherTextAsItIs() {
        #expect(HTMLEscaping.escape("Café 𝄞 12 345,60 €") == "Café 𝄞 12 345,60 €")
    }

    /// The one way pages are made: an interpolated String is escaped, an HTML value is not.
    @Test func interpolatedTextIsEscapedAndMarkupIsNot() {
        let name = "\"><img src=x onerror=alert(1)>"
        let page: HTML = "<a title=\"\(name)\">\(HTML(trusted: "<b>"))\(name)</a>"
        #expect(page.markup == "<a title=\"&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\"><b>&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</a>")
        let missing: String? = nil
        let optional: HTML = "<p>\(missing)</p>"
        #expect(optional.markup == "<p></p>")
    }
}
