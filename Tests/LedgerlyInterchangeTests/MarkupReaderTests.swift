import Foundation
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

    /// An element whose name has no end tag anywhere is a leaf, empty or not: `<NAME>` with
    /// nothing in it closes at the next tag instead of swallowing `<MEMO>`.
    @Test func emptySGMLLeavesAreLeavesToo() throws {
        let root = try MarkupReader.read("<OFX>\n<STMTTRN><NAME><MEMO>x</STMTTRN>\n<STMTTRN><NAME>\n</STMTTRN>\n</OFX>", dialect: .sgml)
        #expect(root.children.map(\.name) == ["STMTTRN", "STMTTRN"])
        #expect(root.children[0].children.map(\.name) == ["NAME", "MEMO"])
        #expect(root.value(at: "STMTTRN/MEMO") == "x")
        #expect(root.children[1].children.map(\.name) == ["NAME"])
        let statement = try OFXStatementReader.parse(text: StatementFixtures.ofxSGML.replacingOccurrences(of: "<NAME>LIDL DIENSTLEISTUNG", with: "<NAME>"))
        #expect(statement.rows[0].description == "Card 1234 Berlin")
    }

    /// A tree nested without end would overflow the stack when taken apart; no statement nests
    /// more than a few dozen levels.
    @Test func nestingDeeperThan256LevelsIsRefused() throws {
        let deepest = String(repeating: "<a>\n", count: 256) + String(repeating: "</a>", count: 256)
        #expect(try MarkupReader.read(Substring(deepest), dialect: .xml).name == "a")
        let tooDeep = String(repeating: "<a>\n", count: 100_000) + String(repeating: "</a>", count: 100_000)
        #expect(throws: BankStatementError(line: 257, "<a> is nested 257 elements deep: more than 256 is not a statement")) {
            try MarkupReader.read(Substring(tooDeep), dialect: .xml)
        }
    }

    @Test(arguments: [
        ("<a><b></a>", MarkupReader.Dialect.xml, "line 1: the end tag </a> does not match <b> opened on line 1"),
        ("<a>\n<b>x</b>", .xml, "line 1: <a> is never closed (the file ends inside it)"),
        ("<a>&#+65;</a>", .xml, "line 1: \"&#+65;…\" is not an entity this reader knows (&lt; &gt; &amp; &quot; &apos; &#N; &#xH;)"),
        ("<a>&#x-41;</a>", .xml, "line 1: \"&#x-41;…\" is not an entity this reader knows (&lt; &gt; &amp; &quot; &apos; &#N; &#xH;)"),
        ("<a>&nbsp;</a>", .xml, "line 1: \"&nbsp;…\" is not an entity this reader knows (&lt; &gt; &amp; &quot; &apos; &#N; &#xH;)"),
        ("<a/>\n<b/>", .xml, "line 2: a second root element <b> after the document's end"),
        ("<a>\n<!-- open", .xml, "line 2: a comment starts here but never ends"),
        ("<OFX>\n<A>\n<B>x\n<C>\n</A></C></OFX>", .sgml, "line 5: the end tag </A> does not match <C> opened on line 4"),
        ("<OFX>\n<A>\n<B>x\n</C></A></OFX>", .sgml, "line 4: the end tag </C> closes no open element (the innermost is <A>, opened on line 2)"),
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
