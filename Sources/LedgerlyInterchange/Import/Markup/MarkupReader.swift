/// A small reader for the markup bank statements come in: XML (CAMT.053, OFX 2.x) and the SGML
/// of OFX 1.x, whose leaf elements have no end tags (`<TRNAMT>-12.50` then the next tag): there
/// an element no end tag in the file names is a leaf, closed at the next tag even when empty.
///
/// Written here rather than using FoundationXML's `XMLParser`, which would link libxml2 into the
/// CLI and load it in every command, whatever it does (docs/performance.md, "CLI start-up");
/// statements need little of XML: elements, attributes, text, the five entities and numeric
/// character references, CDATA, comments, processing instructions and a DOCTYPE to skip.
/// Namespace prefixes are dropped (`camt:Ntry` is `Ntry`): the CAMT versions differ in their
/// namespace URI, not in the element names this project reads. Not read: an internal DTD subset's
/// entity declarations (statements have none; an entity it would declare is refused).
///
/// Strict where a guess would be wrong: a mismatched end tag, an element never closed, an
/// unknown entity in XML, text after the root element, or nesting deeper than `maximumDepth`
/// are refused, naming the line.
struct MarkupReader {
    enum Dialect {
        /// Well-formed XML: every element closed, entities must be known.
        case xml
        /// OFX 1.x SGML: an element that no end tag in the file names, or one holding only text,
        /// closes at the next tag; an aggregate the `SGMLGrammar` names closes where its end tag,
        /// an end tag around it or a start tag its grammar places outside it says (OFX 1.x lets
        /// every end tag be left out);
        /// an `&` that starts no known entity is kept as written (banks write `AT&T` bare).
        case sgml
    }

    /// The deepest nesting read. Statements nest a few dozen levels at most, and the element tree
    /// is taken apart recursively when it is freed: a file nested without end would overflow the
    /// stack there, so it is refused here with its line.
    static let maximumDepth = 256

    /// What SGML's document type definition would tell about elements whose end tags a file
    /// leaves out (OFX 1.x allows it for every element, aggregates too): without it, an aggregate
    /// such as `<BANKTRANLIST>` that no end tag in the file names would be read as an empty leaf,
    /// and the transactions in it would land beside it, where no reader looks for them.
    struct SGMLGrammar: Sendable {
        /// Elements that hold other elements, whether or not the file closes them: kept open
        /// until their end tag, an end tag of an element around them, or a start tag that
        /// `parents` places outside them.
        var aggregates: Set<String> = []
        /// The elements each element may be directly inside. A start tag closes the open
        /// aggregates and leaves whose end tags were left out until one of its parents is the
        /// innermost (`<LEDGERBAL>` closes a `<BANKTRANLIST>` left open); when no parent is open
        /// nothing is closed.
        var parents: [String: Set<String>] = [:]
    }

    private let bytes: [UInt8]
    private let dialect: Dialect
    private let grammar: SGMLGrammar
    private var position = 0
    private var line: Int

    /// - Parameters:
    ///   - firstLine: the line of the file `text` starts on (OFX 1.x hands over the body
    ///     after its header lines), so that messages name the file's lines.
    ///   - grammar: for SGML, the aggregates and parents the format defines; unused for XML.
    init(text: Substring, dialect: Dialect, firstLine: Int = 1, grammar: SGMLGrammar = SGMLGrammar()) {
        bytes = Array(text.utf8)
        self.dialect = dialect
        self.grammar = grammar
        line = firstLine
    }

    /// The document's root element.
    static func read(_ text: Substring, dialect: Dialect, firstLine: Int = 1, grammar: SGMLGrammar = SGMLGrammar()) throws(BankStatementError) -> MarkupElement {
        var reader = MarkupReader(text: text, dialect: dialect, firstLine: firstLine, grammar: grammar)
        return try reader.document()
    }

    private mutating func document() throws(BankStatementError) -> MarkupElement {
        var stack: [MarkupElement] = []
        var root: MarkupElement?

        func closeTop() {
            let element = stack.removeLast()
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }
        let aggregates = dialect == .sgml ? endTagNames().union(grammar.aggregates) : []
        /// SGML: an open element is a leaf whose end tag was left out when no end tag in the file
        /// names it (an empty `<NAME>` too, which must not take the `<MEMO>` after it as its
        /// child), or when it holds text and no children (a leaf some other element closes).
        func topIsUnclosedLeaf() -> Bool {
            guard dialect == .sgml, let top = stack.last else { return false }
            return !aggregates.contains(top.name) || (top.children.isEmpty && !top.text.isBlank)
        }
        /// SGML: the open element may end where an end tag or start tag around it says, its own
        /// end tag left out: a leaf as above, or an aggregate the grammar names (an aggregate
        /// the grammar does not know and the file closes elsewhere must close itself, so that
        /// a misplaced end tag is refused rather than read around).
        func topMayBeClosedImplicitly() -> Bool {
            guard dialect == .sgml, let top = stack.last else { return false }
            return topIsUnclosedLeaf() || grammar.aggregates.contains(top.name)
        }

        while position < bytes.count {
            if bytes[position] != UInt8(ascii: "<") {
                let startLine = line
                let text = try readText()
                if stack.isEmpty {
                    guard text.isBlank else {
                        throw BankStatementError(line: startLine, "text \"\(Self.excerpt(text))\" outside the root element")
                    }
                } else {
                    stack[stack.count - 1].text += text
                }
                continue
            }
            if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<![CDATA[") {
                let startLine = line
                position += 9
                let start = position
                try skip(past: "]]>", what: "a CDATA section")
                guard !stack.isEmpty else { throw BankStatementError(line: startLine, "a CDATA section outside the root element") }
                stack[stack.count - 1].text += String(decoding: bytes[start..<(position - 3)], as: UTF8.self)
            } else if starts(with: "<!") {
                try skipDeclaration()
            } else if starts(with: "</") {
                let tagLine = line
                position += 2
                let name = try readName(what: "an end tag")
                skipSpaces()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
                    throw BankStatementError(line: line, "the end tag </\(name)> is not closed with \">\"")
                }
                position += 1
                let local = Self.localName(name)
                // In SGML the end tag also closes what is open inside its element, when that
                // may have left its own end tag out.
                let isOpen = stack.contains { $0.name == local }
                while stack.last.map({ $0.name != local }) ?? false, isOpen ? topMayBeClosedImplicitly() : topIsUnclosedLeaf() { closeTop() }
                guard let top = stack.last else {
                    throw BankStatementError(line: tagLine, "the end tag </\(name)> closes no open element")
                }
                guard top.name == local else {
                    // In SGML the element it meant may have been closed as a leaf (its end tag is
                    // misspelt, so no end tag names it): "does not match" would point elsewhere.
                    guard dialect == .xml || stack.contains(where: { $0.name == local }) else {
                        throw BankStatementError(line: tagLine, "the end tag </\(name)> closes no open element (the innermost is <\(top.name)>, opened on line \(top.line))")
                    }
                    throw BankStatementError(line: tagLine, "the end tag </\(name)> does not match <\(top.name)> opened on line \(top.line)")
                }
                closeTop()
            } else {
                let tagLine = line
                position += 1
                let name = try readName(what: "a start tag")
                let (attributes, selfClosing) = try readAttributes(of: name)
                if topIsUnclosedLeaf() { closeTop() }
                let local = Self.localName(name)
                if dialect == .sgml, let parents = grammar.parents[local], stack.contains(where: { parents.contains($0.name) }) {
                    while let top = stack.last, !parents.contains(top.name), topMayBeClosedImplicitly() { closeTop() }
                }
                guard root == nil || !stack.isEmpty else {
                    throw BankStatementError(line: tagLine, "a second root element <\(name)> after the document's end")
                }
                guard stack.count < Self.maximumDepth else {
                    throw BankStatementError(line: tagLine, "<\(name)> is nested \(stack.count + 1) elements deep: more than \(Self.maximumDepth) is not a statement")
                }
                stack.append(MarkupElement(name: local, line: tagLine, attributes: attributes))
                if selfClosing { closeTop() }
            }
        }
        while topIsUnclosedLeaf() { closeTop() }
        if let open = stack.last {
            throw BankStatementError(line: open.line, "<\(open.name)> is never closed (the file ends inside it)")
        }
        guard let root else { throw BankStatementError(line: nil, "the file has no elements") }
        return root
    }

    // MARK: Pieces

    /// The local names of every end tag in the file: in OFX 1.x SGML, the aggregates (the
    /// specification closes every aggregate and lets leaves go unclosed).
    private func endTagNames() -> Set<String> {
        var names: Set<String> = []
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "/") {
                var end = index + 2
                while end < bytes.count, Self.isNameByte(bytes[end]) { end += 1 }
                names.insert(Self.localName(String(decoding: bytes[(index + 2)..<end], as: UTF8.self)))
                index = end
            } else {
                index += 1
            }
        }
        return names
    }

    private func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        return prefix.withUTF8Buffer { $0.elementsEqual(bytes[position..<(position + count)]) }
    }

    /// Moves past the next `terminator`, counting lines.
    private mutating func skip(past terminator: StaticString, what: String) throws(BankStatementError) {
        let startLine = line
        while position < bytes.count {
            if starts(with: terminator) {
                position += terminator.utf8CodeUnitCount
                return
            }
            advance()
        }
        throw BankStatementError(line: startLine, "\(what) starts here but never ends")
    }

    /// `<!DOCTYPE …>`, with an internal subset in brackets if any.
    private mutating func skipDeclaration() throws(BankStatementError) {
        let startLine = line
        var depth = 0
        while position < bytes.count {
            let byte = bytes[position]
            advance()
            if byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "]") { depth -= 1 }
            if byte == UInt8(ascii: ">"), depth <= 0 { return }
        }
        throw BankStatementError(line: startLine, "a declaration (<!…) starts here but never ends")
    }

    private mutating func advance() {
        if bytes[position] == UInt8(ascii: "\n") { line += 1 }
        position += 1
    }

    private mutating func skipSpaces() {
        while position < bytes.count, Self.isSpace(bytes[position]) { advance() }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        !isSpace(byte) && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "=") && byte != UInt8(ascii: "<")
            && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
    }

    private mutating func readName(what: String) throws(BankStatementError) -> String {
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        guard position > start else { throw BankStatementError(line: line, "\(what) without a name") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// `ns:Ntry` → `Ntry`.
    static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    /// The attributes up to `>` or `/>`, and whether the tag closed itself.
    private mutating func readAttributes(of element: String) throws(BankStatementError) -> ([String: String], Bool) {
        var attributes: [String: String] = [:]
        while true {
            skipSpaces()
            guard position < bytes.count else { throw BankStatementError(line: line, "the start tag <\(element)> is never closed with \">\"") }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                return (attributes, false)
            }
            if starts(with: "/>") {
                position += 2
                return (attributes, true)
            }
            let name = try readName(what: "an attribute of <\(element)>")
            skipSpaces()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw BankStatementError(line: line, "the attribute \(name) of <\(element)> has no value")
            }
            position += 1
            skipSpaces()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
                throw BankStatementError(line: line, "the value of attribute \(name) of <\(element)> is not quoted")
            }
            let quote = bytes[position]
            let valueLine = line
            position += 1
            let start = position
            while position < bytes.count, bytes[position] != quote { advance() }
            guard position < bytes.count else { throw BankStatementError(line: valueLine, "the value of attribute \(name) of <\(element)> is never closed") }
            let raw = bytes[start..<position]
            position += 1
            attributes[Self.localName(name)] = try decodeEntities(raw, line: valueLine)
        }
    }

    /// Text up to the next `<`, entities decoded.
    private mutating func readText() throws(BankStatementError) -> String {
        let startLine = line
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") { advance() }
        return try decodeEntities(bytes[start..<position], line: startLine)
    }

    private func decodeEntities(_ raw: ArraySlice<UInt8>, line startLine: Int) throws(BankStatementError) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var result: [UInt8] = []
        result.reserveCapacity(raw.count)
        var index = raw.startIndex
        var line = startLine
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == UInt8(ascii: "\n") { line += 1 }
            guard byte == UInt8(ascii: "&") else {
                result.append(byte)
                index += 1
                continue
            }
            let end = raw[index...].prefix(12).firstIndex(of: UInt8(ascii: ";"))
            let name = end.map { String(decoding: raw[(index + 1)..<$0], as: UTF8.self) } ?? ""
            if let end, let scalar = Self.entity(name) {
                result.append(contentsOf: Array(String(Character(scalar)).utf8))
                index = end + 1
            } else if dialect == .sgml {
                result.append(byte)
                index += 1
            } else {
                let shown = String(decoding: raw[index...].prefix(12), as: UTF8.self)
                throw BankStatementError(line: line, "\"\(shown)…\" is not an entity this reader knows (&lt; &gt; &amp; &quot; &apos; &#N; &#xH;)")
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let hexadecimal = digits.first == "x" || digits.first == "X"
            // Digits only: UInt32 would also take a sign (`&#+65;`), which XML does not.
            let body = hexadecimal ? digits.dropFirst() : digits
            guard body.allSatisfy({ hexadecimal ? $0.isHexDigit : $0.asciiDigit != nil }) else { return nil }
            let value = UInt32(body, radix: hexadecimal ? 16 : 10)
            guard let value, value != 0 else { return nil }
            return Unicode.Scalar(value)
        }
    }

    private static func excerpt(_ text: String) -> String {
        let trimmed = text.trimmingWhitespace()
        return trimmed.count > 40 ? String(trimmed.prefix(40)) + "…" : trimmed
    }
}
