import LedgerlyProtocol

/// Which column of a broker's trade CSV holds which field of a trade, and how the broker writes
/// the kinds of trade: what `ledgerly invest import --map … --kinds …` says.
///
/// Written on the command line rather than in a mapping file (as bank statements are) because a
/// trade file has few columns and a broker rarely changes them; the text form is
/// `kind=Type,symbol=Ticker,date=Date` and `BUY=buy,DIV=dividend`.
public struct BrokerTradeMapping: Hashable, Sendable {
    /// The fields a column can fill. `kind`, `symbol` and `date` are required.
    public enum Field: String, CaseIterable, Hashable, Sendable {
        case kind, symbol, date, quantity, price, fee, amount, rate, notes
    }

    /// The kinds a line of a trade file may be: splits and transfers are not broker lines.
    public static let lineKinds: [TradeKind] = [.buy, .sell, .dividend, .interest, .distribution]

    /// Field → the column's name as the header writes it.
    public let columns: [Field: String]
    /// The broker's word (lower-cased) → the kind it means, besides the kinds' own names.
    public let kinds: [String: TradeKind]

    public init(columns: [Field: String], kinds: [String: TradeKind] = [:]) throws(BankStatementError) {
        let missing = [Field.kind, .symbol, .date].filter { columns[$0] == nil }
        guard missing.isEmpty else {
            throw BankStatementError(line: nil, "--map must name the column of \(missing.map(\.rawValue).joined(separator: ", ")) (e.g. kind=Type,symbol=Ticker,date=Date)")
        }
        self.columns = columns
        self.kinds = Dictionary(kinds.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Reads `kind=Type,symbol=Ticker,…` (and, if given, `BUY=buy,DIV=dividend`).
    public init(map: String, kinds: String? = nil) throws(BankStatementError) {
        var columns: [Field: String] = [:]
        for (key, value) in try Self.pairs(map, option: "--map") {
            guard let field = Field(rawValue: key.lowercased()) else {
                throw BankStatementError(line: nil, "--map: '\(key)' is not a field (fields: \(Field.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard columns[field] == nil else { throw BankStatementError(line: nil, "--map names \(field.rawValue) twice") }
            columns[field] = value
        }
        var words: [String: TradeKind] = [:]
        for (word, name) in try kinds.map({ text throws(BankStatementError) in try Self.pairs(text, option: "--kinds") }) ?? [] {
            guard let kind = TradeKind(rawValue: name.lowercased()), Self.lineKinds.contains(kind) else {
                throw BankStatementError(line: nil, "--kinds: '\(name)' is not one of \(Self.lineKinds.map(\.rawValue).joined(separator: ", "))")
            }
            words[word] = kind
        }
        try self.init(columns: columns, kinds: words)
    }

    /// The kind a cell names: the broker's word from `kinds`, else a kind's own name, in any case.
    public func kind(_ cell: String) -> TradeKind? {
        let word = cell.trimmingWhitespace().lowercased()
        if let mapped = kinds[word] { return mapped }
        guard let kind = TradeKind(rawValue: word), Self.lineKinds.contains(kind) else { return nil }
        return kind
    }

    /// `a=b,c=d` as pairs, each side trimmed; an empty side or a missing `=` is refused.
    private static func pairs(_ text: String, option: String) throws(BankStatementError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw BankStatementError(line: nil, "\(option): '\(item)' is not NAME=VALUE")
            }
            pairs.append((parts[0], parts[1]))
        }
        guard !pairs.isEmpty else { throw BankStatementError(line: nil, "\(option) is empty") }
        return pairs
    }
}
