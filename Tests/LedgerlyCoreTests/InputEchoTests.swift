import LedgerlyCore
import Testing

@Suite struct InputEchoTests {
    @Test(arguments: [
        ("wallet.explode", "'wallet.explode'"),
        ("two\nlines\r\tx", #"'two\nlines\r\tx'"#),
        ("nul\u{0}after", #"'nul\u0000after'"#),
        ("bell\u{7}del\u{7F}c1\u{85}", #"'bell\u0007del\u007Fc1\u0085'"#),
        ("rtl\u{202E}bom\u{FEFF}ls\u{2028}", #"'rtl\u202Ebom\uFEFFls\u2028'"#),
        ("tag\u{E0001}", #"'tag\U000E0001'"#),
        (#"it's a\b"#, #"'it\'s a\\b'"#),
        ("Café 😀", "'Café 😀'"),
    ])
    func quotesInputPrintably(input: String, quoted: String) {
        #expect(InputEcho.quoted(input) == quoted)
    }

    @Test func capsLongInput() {
        let long = String(repeating: "x", count: 100_000)
        #expect(InputEcho.quoted(long) == "'" + String(repeating: "x", count: 64) + "…'")
        #expect(InputEcho.escaped(String(repeating: "y", count: 64)) == String(repeating: "y", count: 64))
        #expect(InputEcho.escaped(String(repeating: "\n", count: 1_000)).count == 64 * 2 + 1)
    }
}
