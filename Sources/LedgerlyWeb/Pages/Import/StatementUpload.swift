import Foundation
import LedgerlyCore
import LedgerlyInterchange
import LedgerlyProtocol

/// An uploaded statement turned into `tx.import` items as `ledgerly import csv|ofx|camt|qif`
/// turns a file into them (the same readers of LedgerlyInterchange, the same refusals): the
/// format found from the file's content, a CSV read with a shipped mapping or its columns found
/// by their names, a statement in another currency than the wallet refused, a rule's or the
/// file's category looked up by its path. Anything the CLI would refuse is refused whole, naming
/// the line; nothing is imported from a file with a refusal (D603).
struct StatementUpload {
    enum Format: String, Sendable, CaseIterable {
        case csv, ofx, camt, qif

        /// The format `text` is written in: OFX/QFX by its header or root, CAMT.053 by its
        /// document element, QIF by its `!Type` line; anything else is read as CSV (which then
        /// refuses text it cannot find columns in).
        static func of(_ text: String) -> Format {
            let head = String(text.prefix(4096)).uppercased()
            if head.contains("OFXHEADER") || head.contains("<OFX>") { return .ofx }
            if head.contains("BKTOCSTMRSTMT") || head.contains("CAMT.053") { return .camt }
            if text.trimmingWhitespace.uppercased().hasPrefix("!TYPE") || text.trimmingWhitespace.uppercased().hasPrefix("!OPTION") { return .qif }
            return .csv
        }
    }

    /// A refusal of the whole file: the reason and the line it is about, when there is one.
    struct Refusal: Error, Sendable, Equatable {
        let line: Int?
        let reason: String
    }

    let format: Format
    let items: [TransactionImportItem]
    /// What the readers said about rows they left out or read in a particular way.
    let notes: [String]

    /// - Parameter mapping: a shipped mapping's name, or nil to find the columns by their names.
    init(bytes: [UInt8], mapping: String?, wallet: WalletRecord, categories: [CategoryRecord]) throws(Refusal) {
        var notes: [String] = []
        let text: String
        do {
            let decoded = try StatementTextEncoding.decode(bytes, as: nil)
            if let note = decoded.note { notes.append(note) }
            var body = decoded.text
            if body.unicodeScalars.first == "\u{FEFF}" { body.unicodeScalars.removeFirst() }
            text = body
        } catch {
            throw Refusal(line: error.line, reason: error.message)
        }
        guard !bytes.contains(0) else { throw Refusal(line: nil, reason: "this is not a statement: it holds binary data, not text (CSV, OFX/QFX, QIF or CAMT.053)") }
        format = Format.of(text)
        let statement: BankStatement
        do throws(BankStatementError) {
            switch format {
            case .ofx: statement = try OFXStatementReader.parse(text: text, rules: [], account: nil)
            case .camt: statement = try CAMTStatementReader.parse(text: text, rules: [], account: nil)
            case .qif: statement = try QIFStatementReader.parse(text: text, dateFormat: nil, currency: wallet.currency, rules: [])
            case .csv:
                var chosen: BankCSVMapping?
                if let mapping {
                    guard let shipped = BankCSVShippedMapping.named(mapping) else { throw BankStatementError(line: nil, "no shipped mapping named \(mapping)") }
                    chosen = try shipped.mapping(for: text)
                }
                statement = BankStatement(currency: nil, account: nil, rows: try BankCSVImport.parse(text: text, mapping: chosen, defaultCurrency: wallet.currency))
            }
        } catch {
            throw Refusal(line: error.line, reason: error.message)
        }
        if let currency = statement.currency, currency != wallet.currency {
            throw Refusal(line: nil, reason: "this is a statement in \(currency)\(statement.account.map { " (account \($0))" } ?? "") but wallet \(wallet.name) is in \(wallet.currency)")
        }
        notes += statement.notes
        let byPath = Dictionary(categories.map { ($0.path.lowercased(), $0.id) }, uniquingKeysWith: { first, _ in first })
        var items: [TransactionImportItem] = []
        for row in statement.rows {
            if !row.splits.isEmpty {
                // The CLI's QIF import keeps split parts or turns transfer parts into transfers;
                // the page does not yet, and refuses rather than import a record another way.
                throw Refusal(line: row.line, reason: "this record is split into parts; import this file with `ledgerly import qif`, which keeps or notes each part")
            }
            var category: Int64?
            if let path = row.categoryPath {
                category = try Self.category(path, in: categories, line: row.line)
            } else if let named = row.sourceCategory {
                if named.hasPrefix("[") {
                    notes.append("line \(row.line): \(named) is a transfer to or from another account in the file; imported as an ordinary transaction of this wallet, without a category")
                } else if let id = byPath[named.replacingOccurrences(of: ":", with: "/").lowercased()] {
                    category = id
                } else {
                    throw Refusal(line: row.line, reason: "the file names category '\(named)', which this ledger does not have (create it with `ledgerly category add`)")
                }
            }
            items.append(TransactionImportItem(line: row.line, importKey: row.importKey, transaction: TransactionCreateRequest(
                kind: row.kind, walletId: wallet.id, amount: row.amount, currency: row.currency == wallet.currency ? nil : row.currency,
                categoryId: category, notes: row.description.isEmpty ? nil : row.description, date: row.date, tags: row.tags.isEmpty ? nil : row.tags)))
        }
        guard !items.isEmpty else {
            // A file that yields nothing is an error, never a quiet success (D391).
            guard statement.entries == 0 else {
                throw Refusal(line: nil, reason: "it holds \(statement.entries) transaction\(statement.entries == 1 ? "" : "s") but none can be imported: \(statement.notes.isEmpty ? "none of them was read" : statement.notes.joined(separator: "; "))")
            }
            throw Refusal(line: nil, reason: "it holds no transactions: nothing to import")
        }
        self.items = items
        self.notes = notes
    }

    /// The category a rule names, as `ledgerly import` finds it: its full path or a bare name only
    /// one category has; an ambiguous or unknown name is refused.
    static func category(_ named: String, in categories: [CategoryRecord], line: Int) throws(Refusal) -> Int64 {
        let wanted = named.replacingOccurrences(of: ":", with: "/").lowercased()
        if let exact = categories.first(where: { $0.path.lowercased() == wanted }) { return exact.id }
        let byName = categories.filter { $0.name.lowercased() == wanted }
        guard byName.count <= 1 else { throw Refusal(line: line, reason: "a rule names category '\(named)', which could be \(byName.map(\.path).joined(separator: " or "))") }
        guard let match = byName.first else { throw Refusal(line: line, reason: "a rule names category '\(named)', which does not exist") }
        return match.id
    }
}
