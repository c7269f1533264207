import LedgerlyCore
import LedgerlyInterchange
import LedgerlyProtocol

/// A statement row's split parts that are transfers (QIF `S[Savings]`), taken out as transfers
/// between the wallet imported into and the wallet the part names, and what is left of the row.
///
/// A Ledgerly split holds categories only, so a transfer part cannot stay inside it; imported
/// whole, the row would lose its parts, and the other wallet would not see the money arrive.
/// So each transfer part becomes its own transfer (out of this wallet for a negative part, into
/// it for a positive one), and the other parts stay one transaction of their sum: the wallet
/// moves by exactly the row's amount. A part naming a wallet this ledger lacks, or one in another
/// currency (QIF gives no amount in it), refuses the file, naming the part's line.
struct SplitTransferLegs {
    /// One `tx.import` item per transfer part, keyed `<row key>/transfer<n>` so that importing
    /// the file again finds them as duplicates.
    private(set) var transfers: [TransactionImportItem] = []
    /// The row without its transfer parts: its other parts (a split of two or more, or one part
    /// as the row's own category) and their sum; nil when every part was a transfer.
    private(set) var remainder: BankStatementRow?
    /// What was done, for the user.
    private(set) var note: String

    static func isTransfer(_ split: BankStatementSplit) -> Bool {
        split.category.hasPrefix("[") && split.category.hasSuffix("]")
    }

    init(row: BankStatementRow, wallet: WalletRecord, wallets: [WalletRecord], file: String) throws {
        guard let currency = try? Currency(code: row.currency) else {
            throw CLIFailure(message: "\(file): line \(row.line): the currency \(row.currency) is not known; nothing was imported", status: .refused)
        }
        var named: [String] = []
        for split in row.splits where Self.isTransfer(split) {
            let name = String(split.category.dropFirst().dropLast()).trimmingWhitespace()
            func refuse(_ why: String, hint: String) -> CLIFailure {
                CLIFailure(message: "\(file): line \(split.line): the split part \(split.category) \(split.amount) is a transfer, \(why); nothing was imported", status: .refused, hint: hint)
            }
            guard let other = wallets.first(where: { $0.name.equalsIgnoringCase(name) }) else {
                throw refuse("but this ledger has no wallet named '\(name)'",
                             hint: "add the wallet `\(name)` and import again, or give the part a category in the file")
            }
            guard other.id != wallet.id else {
                throw refuse("to wallet \(wallet.name) itself", hint: "give the part a category in the file")
            }
            guard other.currency == row.currency else {
                throw refuse("to wallet \(other.name), which is in \(other.currency): the file gives no amount in \(other.currency)",
                             hint: "record this transfer with `ledgerly tx transfer … --to-amount`, and give the part a category in the file")
            }
            let outgoing = split.amount.hasPrefix("-")
            let amount = outgoing ? String(split.amount.dropFirst()) : split.amount
            let notes = [row.description, split.memo].filter { !$0.isEmpty }.joined(separator: " ")
            transfers.append(TransactionImportItem(
                line: split.line, importKey: row.importKey + "/transfer\(transfers.count + 1)",
                transfer: TransferCreateRequest(fromWalletId: outgoing ? wallet.id : other.id, toWalletId: outgoing ? other.id : wallet.id, amount: amount,
                                                date: row.date, notes: notes.isEmpty ? nil : notes, tags: row.tags.isEmpty ? nil : row.tags)))
            named.append("\(split.amount) \(outgoing ? "to" : "from") \(other.name) (line \(split.line))")
        }
        let rest = row.splits.filter { !Self.isTransfer($0) }
        note = "line \(row.line): split part\(named.count == 1 ? "" : "s") \(named.joined(separator: ", ")) imported as transfer\(named.count == 1 ? "" : "s") between wallets"
        guard !rest.isEmpty else {
            note += "; the record had no other part"
            return
        }
        // A part's amount has exactly the currency's decimals (`BankStatementSplit`), read as
        // every amount is; a part the reader let through unreadable refuses rather than count 0.
        var sum: Int64 = 0
        for split in rest {
            guard let part = try? Money(parsing: split.amount, currency: currency) else {
                throw CLIFailure(message: "\(file): line \(split.line): the split amount \(split.amount) is not an amount in \(currency.code); nothing was imported", status: .refused)
            }
            sum += part.minorUnits
        }
        guard sum != 0 else {
            throw CLIFailure(message: "\(file): line \(row.line): the split parts other than the transfers add up to zero, which no transaction can record; nothing was imported",
                             status: .refused, hint: "give those parts one category in the file")
        }
        var remainder = row
        remainder.kind = sum < 0 ? .expense : .income
        remainder.amount = Money.format(minorUnits: sum.magnitudeClamped, exponent: currency.exponent)
        if rest.count == 1 {
            // A Ledgerly split has two parts or more: one part is the transaction's own category.
            remainder.splits = []
            remainder.sourceCategory = rest[0].category.isEmpty ? nil : rest[0].category
            remainder.description = [row.description, rest[0].memo].filter { !$0.isEmpty }.joined(separator: " ")
        } else {
            remainder.splits = rest
        }
        self.remainder = remainder
        note += "; the other part\(rest.count == 1 ? "" : "s") (\(remainder.kind == .expense ? "-" : "")\(remainder.amount)) as one transaction of this wallet"
    }
}

private extension Int64 {
    var magnitudeClamped: Int64 { Int64(clamping: magnitude) }
}
