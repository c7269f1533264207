import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly tx add|list|show|edit|delete|transfer`
struct TransactionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tx", abstract: "Record, find, change and delete transactions; move money between wallets.",
        subcommands: [Add.self, List.self, Show.self, Edit.self, Delete.self, Transfer.self])

    /// Turns `--split 20.00:Food/Groceries:weekly shop` values into split parts.
    static func splits(_ values: [String], gateway: Gateway) throws -> [SplitPart] {
        try values.enumerated().map { index, value in
            let pieces = value.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard pieces.count >= 2, !pieces[0].isEmpty, !pieces[1].isEmpty else {
                throw CLIFailure(message: "--split \(index + 1) ('\(value)') must be AMOUNT:CATEGORY or AMOUNT:CATEGORY:MEMO", status: .usage)
            }
            let category = try gateway.category(pieces[1], field: "--split \(index + 1)")
            return SplitPart(amount: pieces[0], categoryId: category.id, memo: pieces.count == 3 ? pieces[2] : nil)
        }
    }

    static func table(_ transactions: [TransactionRecord], wallets: [Int64: String], categories: [Int64: String]) -> String {
        let style = TerminalStyle.standardOutput
        var table = Table([.init("ID", .right), .init("DATE"), .init("WALLET"), .init("AMOUNT", .right), .init("CUR"), .init("CATEGORY"), .init("TAGS"), .init("NOTES")])
        for tx in transactions {
            let signed = (tx.kind == .expense ? "-" : "+") + tx.amount
            let category: String
            if tx.transfer != nil {
                category = "↔ " + (wallets[tx.transfer!.counterpartyWalletId] ?? "transfer")
            } else if !tx.splits.isEmpty {
                category = "split: " + tx.splits.map { categories[$0.categoryId] ?? "?" }.joined(separator: ", ")
            } else {
                category = tx.categoryId.flatMap { categories[$0] } ?? ""
            }
            let notes = (tx.notes ?? "").replacingEvery("\n", with: " ")
            table.add([String(tx.id), tx.date, wallets[tx.walletId] ?? String(tx.walletId), signed, tx.currency, category, tx.tags.joined(separator: ","),
                       notes.count > 40 ? String(notes.prefix(39)) + "…" : notes]) { column, text in
                column == 3 ? (tx.kind == .expense ? style.red(text) : style.green(text)) : text
            }
        }
        return table.render()
    }

    static func details(_ tx: TransactionRecord, gateway: Gateway) throws -> String {
        let wallets = Dictionary(uniqueKeysWithValues: try gateway.call(WalletListRequest(includeArchived: true)).wallets.map { ($0.id, $0.name) })
        let categories = Dictionary(uniqueKeysWithValues: try gateway.call(CategoryListRequest()).categories.map { ($0.id, $0.path) })
        var list = DetailList()
        list.add("Transaction", String(tx.id))
        list.add("Kind", tx.transfer == nil ? tx.kind.rawValue : "transfer (\(tx.kind == .expense ? "outgoing" : "incoming") leg)")
        list.add("Date", tx.date)
        list.add("Wallet", wallets[tx.walletId] ?? String(tx.walletId))
        list.add("Amount", "\(tx.kind == .expense ? "-" : "+")\(tx.amount) \(tx.currency)")
        if let conversion = tx.conversion {
            list.add("In wallet", "\(tx.walletAmount) \(conversion.quote), " + ConvertCommand.describe(conversion))
        }
        if let base = tx.baseCurrency {
            let figure = tx.baseAmount.map { "\($0) \(base)" } ?? "none yet (no rate known when it was recorded)"
            list.add("In \(base)", figure + (tx.baseConversion.map { ", " + ConvertCommand.describe($0) } ?? ""))
        }
        list.add("Category", tx.categoryId.flatMap { categories[$0] })
        if let link = tx.transfer {
            list.add(tx.kind == .expense ? "To" : "From", "\(wallets[link.counterpartyWalletId] ?? "?") (transaction \(link.counterpartyTransactionId))")
        }
        for (index, part) in tx.splits.enumerated() {
            list.add("Split \(index + 1)", "\(part.amount) \(tx.currency)  \(categories[part.categoryId] ?? "?")" + (part.memo.map { "  \($0)" } ?? ""))
        }
        list.add("Tags", tx.tags.joined(separator: ", "))
        list.add("Notes", tx.notes)
        list.add("Attachment", tx.attachmentPath)
        list.add("Created", tx.createdAt)
        list.add("Updated", tx.updatedAt)
        return list.render()
    }

    struct Add: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Record an expense or income.",
            discussion: "Example: ledgerly tx add --wallet Checking --amount 84.30 \\\n           --split 60:Groceries --split 24.30:Household --tag weekly")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Wallet id or name.", completion: NameCompletion.wallets) var wallet: String
        @Option(parsing: .unconditional, help: "Positive amount, e.g. 12.50, 1,234.56, €12.50 or 12.50 USD (at most the currency's decimals; a decimal comma where the locale writes one).",
                transform: AmountOptions.marked) var amount: MarkedAmount
        @Option(help: "expense or income.") var kind: TransactionKind = .expense
        @Option(help: "Category id, path or name.", completion: NameCompletion.categories) var category: String?
        @Option(help: "Free text.") var notes: String?
        @Option(parsing: .unconditional, help: "YYYY-MM-DD, today, yesterday, -3d, … (default today).", transform: DayOptions.day) var date: String?
        @Option(name: .customLong("tag"), help: "A tag (repeatable; new tags are created).") var tags: [String] = []
        @Option(name: .customLong("split"), help: ArgumentHelp("AMOUNT:CATEGORY[:MEMO] (repeatable; parts must add up to --amount).", valueName: "amount:category[:memo]"),
                transform: AmountOptions.split) var splits: [String] = []
        @Option(help: "Path of a receipt or document.", completion: .file()) var attachment: String?
        @Option(help: "Currency of the amount (default: the wallet's); another currency is converted and the rate kept.") var currency: String?
        @Option(parsing: .unconditional, help: "With --currency: the rate the bank charged (wallet currency per unit of --currency), used once.",
                transform: AmountOptions.decimal) var rate: String?

        func validate() throws {
            if let rate { try RateArgument.check(rate, name: "--rate") }
            _ = try amount.currency(given: currency)
        }

        var wording: FieldWording { TransactionCommand.wording }

        func reply(from gateway: Gateway) throws -> Resolved<TransactionRecord, WalletRecord> {
            let target = try gateway.wallet(wallet)
            let created = try gateway.call(TransactionCreateRequest(
                kind: kind, walletId: target.id, amount: amount.amount, currency: try amount.currency(given: currency), rate: rate,
                categoryId: try category.map { try gateway.category($0).id }, notes: notes, date: date ?? Timestamp.today(),
                tags: tags.isEmpty ? nil : tags, attachmentPath: attachment,
                splits: splits.isEmpty ? nil : try TransactionCommand.splits(splits, gateway: gateway)))
            return Resolved(created, target)
        }

        /// The sentence names the wallet as it was found for the request.
        func render(_ reply: Resolved<TransactionRecord, WalletRecord>, gateway: Gateway) throws {
            let created = reply.body, target = reply.context
            let balance = try gateway.call(WalletGetRequest(id: target.id)).balance
            let moved = created.currency == target.currency ? "" : " = \(created.walletAmount) \(target.currency)"
            print("Recorded \(created.kind.rawValue) \(created.id): \(created.amount) \(created.currency)\(moved) on \(created.date) in '\(target.name)' (balance \(balance) \(target.currency)).")
            if let conversion = created.conversion { print(TerminalStyle.standardOutput.dim(ConvertCommand.describe(conversion))) }
            if created.baseAmount == nil, let base = created.baseCurrency, base != target.currency {
                CommandOutput.current.writeError(TerminalStyle.standardError.yellow("warning: ") + "no \(target.currency)→\(base) rate is known yet, so this transaction has no \(base) amount; add one with `ledgerly rates set \(target.currency) \(base) RATE`\n")
            }
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List transactions, newest first, with filters.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Wallet id or name.", completion: NameCompletion.wallets) var wallet: String?
        @Option(help: "Category id, path or name (includes its children and split parts).", completion: NameCompletion.categories) var category: String?
        @Option(help: "Tag name.") var tag: String?
        @OptionGroup var range: DayRangeOptions
        @Option(help: "Text to find in the notes.") var text: String?
        @Option(help: "At most this many (1-10000).") var limit: Int = 50
        @Option(help: "Skip this many (paging).") var offset: Int?
        @Option(help: ArgumentHelp("The page after this transaction, as the previous page printed it (DATE:ID); as fast on the last page as on the first.", valueName: "DATE:ID"))
        var after: String?

        func validate() throws {
            if after != nil && offset != nil { throw ValidationError("give --after or --offset, not both") }
            _ = try cursor()
        }

        /// `--after` as the store takes it; "DATE:ID" is what the hint under a page prints.
        private func cursor() throws -> TransactionListCursor? {
            guard let after else { return nil }
            let parts = after.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let id = Int64(parts[1]), id > 0 else {
                throw ValidationError("--after must be DATE:ID as printed under a page (e.g. 2026-03-02:1234), got '\(after)'")
            }
            return TransactionListCursor(date: String(parts[0]), id: id)
        }

        var wording: FieldWording { TransactionCommand.wording }

        /// The wallet and category lists are asked first, with or without `--json` (as always):
        /// the lookups and the table both read them, from the gateway's cache.
        func reply(from gateway: Gateway) throws -> TransactionListReply {
            _ = try gateway.wallets()
            _ = try gateway.categories()
            return try gateway.listTransactions(TransactionListRequest(
                walletId: try wallet.map { try gateway.wallet($0).id }, categoryId: try category.map { try gateway.category($0).id },
                tag: tag, from: range.from, to: range.to, text: text, limit: limit, offset: offset, after: try cursor()))
        }

        func render(_ reply: TransactionListReply, gateway: Gateway) throws {
            if reply.transactions.isEmpty {
                let past = after.map { "--after \($0)" } ?? "--offset \(offset ?? 0)"
                return print(reply.total > 0 ? "No transactions past \(past); \(reply.total) match in all." : "No transactions match.")
            }
            print(TransactionCommand.table(reply.transactions,
                                           wallets: Dictionary(uniqueKeysWithValues: try gateway.wallets().map { ($0.id, $0.name) }),
                                           categories: Dictionary(uniqueKeysWithValues: try gateway.categories().map { ($0.id, $0.path) })), terminator: "")
            if reply.total > reply.transactions.count {
                let shown = after == nil ? "\((offset ?? 0) + 1)-\((offset ?? 0) + reply.transactions.count)" : "\(reply.transactions.count)"
                let more = reply.next.map { "; next page: --after \($0.date):\($0.id)" } ?? ""
                print(TerminalStyle.standardOutput.dim("Showing \(shown) of \(reply.total)\(more)."))
            }
        }
    }

    struct Show: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one transaction.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Transaction id.") var id: Int64

        var wording: FieldWording { TransactionCommand.wording.adding(["id": "<id>"]) }

        func reply(from gateway: Gateway) throws -> TransactionRecord {
            return try gateway.call(TransactionGetRequest(id: id))
        }

        func render(_ tx: TransactionRecord, gateway: Gateway) throws {
            print(try TransactionCommand.details(tx, gateway: gateway), terminator: "")
        }
    }

    struct Edit: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a transaction (only what you pass).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Transaction id.") var id: Int64
        @Option(help: "New wallet id or name.", completion: NameCompletion.wallets) var wallet: String?
        @Option(parsing: .unconditional, help: "New amount.", transform: AmountOptions.plain) var amount: String?
        @Option(help: "expense or income.") var kind: TransactionKind?
        @Option(help: "Category id, path or name.", completion: NameCompletion.categories) var category: String?
        @Option(help: "New notes.") var notes: String?
        @Option(parsing: .unconditional, help: "New date, YYYY-MM-DD, today, yesterday, -3d, ….", transform: DayOptions.day) var date: String?
        @Option(name: .customLong("tag"), help: "Replace the tags (repeatable).") var tags: [String] = []
        @Flag(name: .customLong("clear-tags"), help: "Remove all tags.") var clearTags = false
        @Option(name: .customLong("split"), help: ArgumentHelp("Replace the splits: AMOUNT:CATEGORY[:MEMO] (repeatable).", valueName: "amount:category[:memo]"),
                transform: AmountOptions.split) var splits: [String] = []
        @Flag(name: .customLong("clear-splits"), help: "Remove the splits.") var clearSplits = false
        @Option(help: "Path of a receipt or document.", completion: .file()) var attachment: String?

        var wording: FieldWording { TransactionCommand.wording.adding(["id": "<id>"]) }

        func reply(from gateway: Gateway) throws -> TransactionRecord {
            return try gateway.call(TransactionUpdateRequest(
                id: id, kind: kind, walletId: try wallet.map { try gateway.wallet($0).id }, amount: amount,
                categoryId: try category.map { try gateway.category($0).id }, notes: notes, date: date,
                tags: clearTags ? [] : (tags.isEmpty ? nil : tags), attachmentPath: attachment,
                splits: clearSplits ? [] : (splits.isEmpty ? nil : try TransactionCommand.splits(splits, gateway: gateway))))
        }

        func render(_ updated: TransactionRecord, gateway: Gateway) throws {
            print(try TransactionCommand.details(updated, gateway: gateway), terminator: "")
        }
    }

    struct Delete: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a transaction (both legs of a transfer).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Transaction id.") var id: Int64

        var wording: FieldWording { TransactionCommand.wording.adding(["id": "<id>"]) }

        func reply(from gateway: Gateway) throws -> TransactionDeleteReply {
            try gateway.call(TransactionDeleteRequest(id: id))
        }

        func render(_ reply: TransactionDeleteReply, gateway: Gateway) throws {
            print("Deleted transaction\(reply.deletedIds.count > 1 ? "s" : "") \(reply.deletedIds.map(String.init).joined(separator: ", ")).")
            for contribution in reply.withdrawnContributions {
                let goal = try gateway.call(GoalGetRequest(id: contribution.goalId))
                print("Goal '\(goal.name)' no longer counts the \(contribution.amount) \(goal.currency) this transfer moved on \(contribution.date) (now \(goal.current) of \(goal.target)).")
            }
        }
    }

    struct Transfer: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "transfer",
            abstract: "Move money between two wallets (two linked legs; not income or spending).",
            discussion: "Between currencies, give what arrives: ledgerly tx transfer --from Checking --to Yen --amount 100 --to-amount 16250")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Source wallet id or name.", completion: NameCompletion.wallets) var from: String
        @Option(help: "Destination wallet id or name.", completion: NameCompletion.wallets) var to: String
        @Option(parsing: .unconditional, help: "Amount leaving the source wallet.", transform: AmountOptions.plain) var amount: String
        @Option(name: .customLong("to-amount"), parsing: .unconditional, help: "Amount arriving (required when the currencies differ).", transform: AmountOptions.plain) var toAmount: String?
        @Option(parsing: .unconditional, help: "YYYY-MM-DD, today, yesterday, -3d, … (default today).", transform: DayOptions.day) var date: String?
        @Option(help: "Free text.") var notes: String?
        @Option(name: .customLong("tag"), help: "A tag (repeatable).") var tags: [String] = []

        var wording: FieldWording { TransactionCommand.wording }

        /// With the two wallets as found, whose names the sentence gives.
        func reply(from gateway: Gateway) throws -> Resolved<TransferReply, (source: WalletRecord, destination: WalletRecord)> {
            let source = try gateway.wallet(from, field: "--from")
            let destination = try gateway.wallet(to, field: "--to")
            let reply = try gateway.call(TransferCreateRequest(
                fromWalletId: source.id, toWalletId: destination.id, amount: amount, toAmount: toAmount,
                date: date ?? Timestamp.today(), notes: notes, tags: tags.isEmpty ? nil : tags))
            return Resolved(reply, (source, destination))
        }

        func render(_ resolved: Resolved<TransferReply, (source: WalletRecord, destination: WalletRecord)>, gateway: Gateway) throws {
            let reply = resolved.body, source = resolved.context.source, destination = resolved.context.destination
            print("Transferred \(reply.outgoing.amount) \(reply.outgoing.currency) from '\(source.name)' to '\(destination.name)' (\(reply.incoming.amount) \(reply.incoming.currency) arrived); transactions \(reply.outgoing.id) and \(reply.incoming.id).")
        }
    }
}

extension TransactionCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["walletId": "--wallet", "categoryId": "--category", "fromWalletId": "--from", "toWalletId": "--to", "splits": "--split", "tags": "--tag", "attachmentPath": "--attachment"]
}
