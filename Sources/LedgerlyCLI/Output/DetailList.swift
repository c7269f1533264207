/// "Label: value" lines with the labels aligned, for `show` commands.
struct DetailList {
    private var items: [(String, String)] = []

    mutating func add(_ label: String, _ value: String?) {
        if let value, !value.isEmpty { items.append((label, value)) }
    }

    func render(style: TerminalStyle = .standardOutput) -> String {
        let width = items.map(\.0.count).max() ?? 0
        return items.map { label, value in
            style.dim(label + ":" + String(repeating: " ", count: width - label.count)) + "  " + value
        }.joined(separator: "\n") + "\n"
    }
}
