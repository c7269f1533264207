/// One element of a statement file read by `MarkupReader`: its local name (any namespace prefix
/// dropped), attributes, text and child elements, and the line its start tag is on so that a
/// refusal can name the place at fault.
///
/// A tree rather than events: statements are a few megabytes at most, and the parsers look
/// things up by path (`Stmt/Acct/Ccy`), which a tree makes plain to read and to check.
struct MarkupElement: Sendable {
    /// Without a namespace prefix (`Ntry` for `<camt:Ntry>`): CAMT files come with any prefix,
    /// or none, depending on the bank's software.
    let name: String
    /// The 1-based line of the start tag.
    let line: Int
    /// By local name; entities decoded.
    var attributes: [String: String] = [:]
    /// The element's own text (not its children's), entities decoded, as written.
    var text = ""
    var children: [MarkupElement] = []

    /// The text without leading and trailing whitespace: the value of a leaf element.
    var value: String { text.trimmingWhitespace() }

    /// The first child with this local name.
    func child(_ name: String) -> MarkupElement? {
        children.first { $0.name == name }
    }

    /// Every child with this local name, in order.
    func children(_ name: String) -> [MarkupElement] {
        children.filter { $0.name == name }
    }

    /// The element at a `/`-separated path of local names (first match at each step).
    func element(at path: String) -> MarkupElement? {
        var current = self
        for step in path.split(separator: "/") {
            guard let next = current.child(String(step)) else { return nil }
            current = next
        }
        return current
    }

    /// The trimmed text at `path`, nil when the element is missing or its text is blank.
    func value(at path: String) -> String? {
        guard let value = element(at: path)?.value, !value.isEmpty else { return nil }
        return value
    }
}
