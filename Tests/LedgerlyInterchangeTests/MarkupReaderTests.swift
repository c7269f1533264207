@testable import LedgerlyInterchange
import Testing

@Suite struct MarkupReaderTests {
    @Test func elementsAttributesTextEntitiesCDATAAndCommentsAreRead() throws {
        let root = try MarkupReader.read("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE doc [ <!ELEMENT doc ANY> ]>
            <!-- a comment <not> an element -->
            <x:Doc xmlns:x="urn:example" x:kind='a &amp; b'>
              <Name>Caf&#233; &lt;Bar&gt; &#x20AC;5 &quot;q&quot; &apos;s&apos;</Name>
              <Memo><![CDATA[<kept> & as is]]></Memo>
              <Empty/>
            </x:Doc>
            """, dialect: .xml)
        #expect(root.name == "Doc")
        #expect(root.attributes["kind"] == "a & b")
        #expect(root.value(at: "Name") == "Café <Bar> €5 \"q\" 's'")
        #expect(root.value(at: "Memo") == "<kept> & as is")
        #expect(root.child("Empty") != nil)
        #expect(root.child("Name")?.line == 5)
    }

    @Test func sgmlLeavesCloseAtTheNextTag() throws {
        let root = try MarkupReader.read("<OFX>\n<A><B>one\n<C>two</C>\n<D>AT&T\n</A>\n</OFX>", dialect: .sgml)
        #expect(root.child("A")?.children.map(\.name) == ["B", "C", "D"])
        #expect(root.value(at: "A/B") == "one")
        #expect(root.value(at: "A/D") == "AT&T")
    }

    @Test(arguments: [
        ("<a><b></a>", MarkupReader.Dialect.xml, "line 1: the end tag </a> does not match <b> opened on line 1"),
        ("<a>\n<b>x</b>", .xml, "line 1: <a> is never closed (the file ends inside it)"),
        ("<a>&nbsp;</a>", .xml, "line 1: \"&nbsp;…\" is not an entity this reader knows (&lt; &gt; &amp; &quot; &apos; &#N; &#xH;)"),
        ("<a/>\n<b/>", .xml, "line 2: a second root element <b> after the document's end"),
        ("<a>\n<!-- open", .xml, "line 2: a comment starts here but never ends"),
        ("<OFX>\n<A>\n<B>\n</A></OFX>", .sgml, "line 4: the end tag </A> does not match <B> opened on line 3"),
    ])
    func malformedMarkupIsRefusedNamingTheLine(text: String, dialect: MarkupReader.Dialect, message: String) {
        #expect(throws: BankStatementError.self) { try MarkupReader.read(Substring(text), dialect: dialect) }
        do {
            _ = try MarkupReader.read(Substring(text), dialect: dialect)
        } catch {
            #expect(error.description == message)
        }
    }
}
