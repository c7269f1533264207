import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// How one command names the request fields it fills: the option or positional argument a
/// person typed for each body member (`walletId` → `--wallet`, `amount` → `<amount>`), so an
/// error points at what to fix in the command line just typed.
///
/// Each command declares its own (the commands of one file share one), so a field's meaning is
/// never guessed across commands: `from` is a currency for `convert`, a month for the reports,
/// a wallet for `tx transfer` (D106). A member a command does not name reads as its kebab-case
/// option (`startingBalance` → `--starting-balance`), which is how the options are declared.
struct FieldWording: Sendable, ExpressibleByDictionaryLiteral {
    /// Body member → what the person typed.
    private var names: [String: String]
    /// Body member → the rows of a file it carries, for a request made of a file's lines.
    private var rows: [String: FileRows] = [:]

    /// The lines of a file sent as one array member (`lines` of `invest.trade.import`): each
    /// element is named by the file and its line there ("trades.csv line 5", counting as an
    /// editor does, not the element's index), and each field of a line by the file's column it
    /// came from ("Price").
    struct FileRows: Sendable {
        /// The file as the person named it on the command line.
        let file: String
        /// Each element's line in the file.
        let lines: [Int]
        /// A line's field → the file's column it came from.
        let columns: [String: String]
    }

    init(_ names: [String: String] = [:]) { self.names = names }

    init(dictionaryLiteral elements: (String, String)...) {
        self.names = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    /// This wording with more names, for the fields one subcommand fills from positional
    /// arguments (`["id": "<wallet>"]`).
    func adding(_ more: [String: String]) -> FieldWording {
        var wording = FieldWording(names.merging(more, uniquingKeysWith: { _, new in new }))
        wording.rows = rows
        return wording
    }

    /// This wording with `member`'s elements named as the lines of a file:
    /// `body.lines[3].price` reads "trades.csv line 5, column Price".
    func addingRows(of member: String, _ fileRows: FileRows) -> FieldWording {
        var wording = self
        wording.rows[member] = fileRows
        return wording
    }

    /// The option for a body path: `body.splits[1].amount` → `--split 2`, `body.toAmount` → `--to-amount`.
    func option(for path: FieldPath) -> String? {
        guard let member = path.bodyMembers.first else { return nil }
        if let file = rows[member], path.steps.count > 2, case .index(let index) = path.steps[2], file.lines.indices.contains(index) {
            let line = "\(file.file) line \(file.lines[index])"
            guard path.steps.count > 3, case .member(let field) = path.steps[3] else { return line }
            return "\(line), column \(file.columns[field] ?? field)"
        }
        let option = names[member] ?? "--" + member.reduce(into: "") { result, character in
            result += character.isUppercase ? "-" + character.lowercased() : String(character)
        }
        // The index right after the member is the position a person counts (the 2nd --split).
        guard path.steps.count > 2, case .index(let index) = path.steps[2] else { return option }
        return "\(option) \(index + 1)"
    }

    /// The store's message with each request path in it written as this command's option, and
    /// the option at fault named first when the sentence does not name it already.
    func message(_ error: ErrorBody) -> String {
        if let field = error.field.flatMap(FieldPath.init(wire:)), let text = fileLineMessage(error, at: field) { return text }
        var text = error.message
        let paths = Set(([error.field].compactMap { $0 } + Self.bodyPaths(in: text)).filter { $0.hasPrefix("body.") })
        // Longest first, so "body.splits[1].amount" is replaced before "body.splits".
        for wire in paths.sorted(by: { $0.count > $1.count }) {
            guard let path = FieldPath(wire: wire), let option = option(for: path) else { continue }
            text = text.replacingEvery(wire, with: option)
        }
        if let field = error.field.flatMap(FieldPath.init(wire:)), let option = option(for: field), !text.contains(option) {
            text = "\(option): \(text)"
        }
        return text
    }

    /// A refusal of one line of a file: "trades.csv line 5, column Price: " and the store's
    /// reason, without the reason's own "line 5: " and the path of the field already named, and
    /// with any other field of the line named by its column.
    private func fileLineMessage(_ error: ErrorBody, at path: FieldPath) -> String? {
        guard let member = path.bodyMembers.first, let file = rows[member], path.steps.count > 2, case .index(let index) = path.steps[2],
              file.lines.indices.contains(index), let label = option(for: path)
        else { return nil }
        var reason = error.message
        let own = "line \(file.lines[index]): "
        if reason.hasPrefix(own) { reason.removeFirst(own.count) }
        if path.steps.count > 3, case .member(let field) = path.steps[3], reason.hasPrefix("body.\(field): ") {
            reason.removeFirst("body.\(field): ".count)
        }
        for wire in Self.bodyPaths(in: reason).sorted(by: { $0.count > $1.count }) {
            guard let inner = FieldPath(wire: wire), let name = inner.bodyMembers.last else { continue }
            reason = reason.replacingEvery(wire, with: file.columns[name] ?? names[name] ?? name)
        }
        return "\(label): \(reason)"
    }

    private static func bodyPaths(in text: String) -> [String] {
        text.split(whereSeparator: { " ',:;()".contains($0) }).map(String.init).filter { $0.hasPrefix("body.") }
    }
}
