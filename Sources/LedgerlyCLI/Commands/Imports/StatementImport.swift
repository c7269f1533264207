import FoundationEssentials
import LedgerlyFiles
import Glibc
import LedgerlyCore
import LedgerlyInterchange
import LedgerlyProtocol

/// The part every bank-statement import shares, whatever the format (CSV, OFX/QFX, CAMT.053,
/// QIF): reading the file, the rules, refusing a statement in another currency than the wallet,
/// turning rows into `tx.import` items, sending them all or nothing, and the summary. So an OFX
/// file is imported, skipped as duplicates, dry-run and undone exactly as a CSV one is.
struct StatementImport {
    let options: StatementImportOptions
    let gateway: Gateway
    let wallet: WalletRecord
    /// Every note printed on standard error so far, for `--json`'s reply (`StatementImportReply`).
    private(set) var notes: [String] = []

    init(_ options: StatementImportOptions, global: GlobalOptions) throws {
        self.options = options
        gateway = try Gateway(global, patientMilliseconds: 60_000, wording: ImportCommand.wording)
        wallet = try gateway.wallet(options.wallet)
    }

    /// The file as text, decoded as `--encoding` says or, without it, as UTF-8 else Windows-1252
    /// with a note on standard error.
    mutating func text() throws -> String {
        let path = options.file
        let contents = path == "-" ? try? PosixFile.standardInput.readToEnd() : FileManager.default.contents(atPath: path)
        guard let data = contents else { throw CLIFailure(message: "cannot read \(path)", status: .refused) }
        let decoded = try refusing { () throws(BankStatementError) in try StatementTextEncoding.decode(Array(data), as: options.encoding) }
        if let note = decoded.note { self.note("\(path): \(note)") }
        var text = decoded.text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        return text
    }

    /// The rules of `--rules`: a JSON array of rules as a CSV mapping's `rules` are written.
    func rules() throws -> [BankCSVRule] {
        guard let path = options.rules else { return [] }
        let data = try Data(ImportCommand.read(path).utf8)
        do {
            return try JSONDecoder().decode([BankCSVRule].self, from: data)
        } catch {
            throw CLIFailure(message: "\(path): not an array of rules: \(error)", status: .refused,
                             hint: "write [{\"contains\": \"lidl\", \"category\": \"Food:Groceries\", \"tags\": [\"groceries\"]}]")
        }
    }

    /// Runs a reader, turning its refusal into the CLI's (naming the file; nothing imported).
    func refusing<Value>(_ read: () throws(BankStatementError) -> Value) throws -> Value {
        do {
            return try read()
        } catch {
            throw CLIFailure(message: "\(options.file): \(error.description); nothing was imported", status: .refused)
        }
    }

    /// Imports `statement`'s rows under an import id starting with `prefix`.
    /// - Parameter ignoreSourceCategories: import rows whose file names a category that does not
    ///   exist (QIF `L`) without one, instead of refusing the file.
    mutating func run(_ statement: BankStatement, prefix: String, json: Bool, batchSize: Int, ignoreSourceCategories: Bool = false) throws {
        let file = options.file
        if let currency = statement.currency, currency != wallet.currency {
            throw CLIFailure(message: "\(file) is a statement in \(currency)\(statement.account.map { " (account \($0))" } ?? "") but wallet \(wallet.name) is in \(wallet.currency); nothing was imported",
                             status: .refused, hint: "import it into a \(currency) wallet")
        }
        for note in statement.notes { self.note("\(file): \(note)") }
        let categories = try gateway.call(CategoryListRequest()).categories
        var sourceCategories = SourceCategories(categories: categories)
        // QIF split parts that are transfers become transfers of their own (SplitTransferLegs).
        let hasTransferParts = statement.rows.contains { $0.splits.contains(where: SplitTransferLegs.isTransfer) }
        let wallets = hasTransferParts ? try gateway.wallets() : []
        var transferItems: [TransactionImportItem] = []
        var transferNotes: [String] = []
        let rows = try statement.rows.compactMap { row -> BankStatementRow? in
            guard row.splits.contains(where: SplitTransferLegs.isTransfer) else { return row }
            let legs = try SplitTransferLegs(row: row, wallet: wallet, wallets: wallets, file: file)
            transferItems += legs.transfers
            transferNotes.append(legs.note)
            return legs.remainder
        }
        for note in transferNotes { self.note("\(file): \(note)") }
        let items = try rows.map { row -> TransactionImportItem in
            var category = try row.categoryPath.map { path in try ImportCommand.category(path, in: categories, file: file, line: row.line) }
            var splits: [SplitPart]?
            if !row.splits.isEmpty {
                // The file's split wins over a rule: a rule names one category for the whole
                // record, and taking it would drop the parts and their memos. When the split
                // cannot be kept, the record is imported whole, in the rule's category if any.
                splits = sourceCategories.splits(of: row, ruleCategory: row.categoryPath)
                if splits != nil { category = nil }
            } else if category == nil, let named = row.sourceCategory {
                category = sourceCategories.id(named, line: row.line)
            }
            return TransactionImportItem(line: row.line, importKey: row.importKey, transaction: TransactionCreateRequest(
                kind: row.kind, walletId: wallet.id, amount: row.amount, currency: row.currency == wallet.currency ? nil : row.currency,
                categoryId: category, notes: row.description.isEmpty ? nil : row.description, date: row.date, tags: row.tags.isEmpty ? nil : row.tags,
                splits: splits))
        } + transferItems
        if !sourceCategories.missing.isEmpty, !ignoreSourceCategories {
            let names = sourceCategories.missing.keys.sorted()
            let shown = names.prefix(8).map { "'\($0)' (line \(sourceCategories.missing[$0]!))" }.joined(separator: ", ") + (names.count > 8 ? ", …" : "")
            throw CLIFailure(message: "\(file) names \(names.count) categor\(names.count == 1 ? "y" : "ies") this ledger does not have: \(shown); nothing was imported",
                             status: .refused, hint: "create them with `ledgerly category add`, or pass --ignore-categories to import those rows without a category")
        }
        for note in sourceCategories.notes { self.note("\(file): \(note)") }
        guard !items.isEmpty else {
            // A file with transactions that yields none (all left out, or not understood) is a
            // refusal naming why, never a quiet success (D391).
            guard statement.entries == 0 else {
                let why = statement.notes.isEmpty ? "none of them was read" : statement.notes.joined(separator: "; ")
                throw CLIFailure(message: "\(file) holds \(statement.entries) transaction\(statement.entries == 1 ? "" : "s") but none can be imported: \(why); nothing was imported",
                                 status: .refused)
            }
            if json { return try JSONOutput.print(StatementImportReply(nothingIn: notes, dryRun: options.dryRun)) }
            return print("\(file) holds no transactions: nothing to import.")
        }
        let importId = prefix + "-" + UUID().uuidString.lowercased().prefix(8)
        let result = try ImportCommand.send(items, importId: importId, batchSize: batchSize, dryRun: options.dryRun, gateway: gateway)
        let reply = TransactionImportReply(importId: importId, imported: result.imported, duplicates: result.duplicates, firstId: nil, lastId: nil, dryRun: options.dryRun)
        if json { return try JSONOutput.print(StatementImportReply(reply, notes: notes)) }
        ImportCommand.summarise(reply, rows: items.count, file: file, wallet: wallet.name)
    }

    /// The whole import of a file in a format without a mapping (OFX, CAMT, QIF): `read` turns
    /// the file's text and the rules into a statement. A failure is reported by `CommandRunner`,
    /// as every command's, so the commands' `run()` is this call alone.
    static func run(
        _ options: StatementImportOptions, global: GlobalOptions, json: Bool, batchSize: Int, prefix: String, ignoreSourceCategories: Bool = false,
        read: (_ text: String, _ rules: [BankCSVRule], _ wallet: WalletRecord) throws(BankStatementError) -> BankStatement
    ) throws {
        try CommandRunner.run {
            var importer = try StatementImport(options, global: global)
            let text = try importer.text()
            let rules = try importer.rules()
            let statement = try importer.refusing { () throws(BankStatementError) in try read(text, rules, importer.wallet) }
            try importer.run(statement, prefix: prefix, json: json, batchSize: batchSize, ignoreSourceCategories: ignoreSourceCategories)
        }
    }

    /// Prints `text` on standard error as a note and keeps it for `--json`.
    private mutating func note(_ text: String) {
        notes.append(text)
        CommandOutput.current.writeError(TerminalStyle.standardError.yellow("note: ") + text + "\n")
    }
}

/// The categories a file names itself (QIF `L` and split `S`), found by their full path
/// (`Food:Groceries` is `Food/Groceries`), and what could not be used, for the messages.
private struct SourceCategories {
    let byPath: [String: Int64]
    /// Names with no category in the ledger → the first line naming them.
    var missing: [String: Int] = [:]
    /// Transfers (`[Savings]`) and splits that cannot be a Ledgerly split, one sentence each.
    var notes: [String] = []

    init(categories: [CategoryRecord]) {
        byPath = Dictionary(categories.map { ($0.path.lowercased(), $0.id) }, uniquingKeysWith: { first, _ in first })
    }

    /// The category `named` names; nil for a transfer (`[Account]`, noted) or one that is missing (recorded).
    mutating func id(_ named: String, line: Int) -> Int64? {
        if named.hasPrefix("[") {
            notes.append("line \(line): \(named) is a transfer to or from another account in the file; imported as an ordinary transaction of this wallet, without a category")
            return nil
        }
        if let id = byPath[named.replacingEvery(":", with: "/").lowercased()] { return id }
        if missing[named] == nil { missing[named] = line }
        return nil
    }

    /// The row's split parts as Ledgerly's, or nil (the row then imports whole, in the rule's
    /// category or none) when a part has no category, another sign than the row, a transfer or
    /// a category the ledger lacks; every outcome that does not simply keep the parts is noted.
    /// - Parameter ruleCategory: the category a rule gave the row, which the parts override.
    mutating func splits(of row: BankStatementRow, ruleCategory: String?) -> [SplitPart]? {
        // First what no ledger could hold; only a split that could be kept has its categories
        // looked up, so that a record imported whole anyway does not refuse the file for them.
        var refusal: String? = row.splits.lazy.compactMap { split -> String? in
            if split.category.isEmpty { return "its split parts include one without a category, which a Ledgerly split cannot be" }
            if split.amount.hasPrefix("-") != (row.kind == .expense) { return "its split parts have both signs, which a Ledgerly split cannot be" }
            if split.category.hasPrefix("[") { return "its split part on line \(split.line) is a transfer (\(split.category)), which a Ledgerly split cannot hold" }
            return nil
        }.first
        var parts: [SplitPart] = []
        if refusal == nil {
            // Every part is looked up, so that a refusal of the file names all the missing categories.
            for split in row.splits {
                if let id = id(split.category, line: split.line) {
                    parts.append(SplitPart(amount: split.amount.hasPrefix("-") ? String(split.amount.dropFirst()) : split.amount, categoryId: id, memo: split.memo.isEmpty ? nil : split.memo))
                } else if refusal == nil {
                    refusal = "its split part on line \(split.line) names '\(split.category)', which this ledger does not have"
                }
            }
        }
        if let refusal {
            let whole = ruleCategory.map { "in the rule's category \($0)" } ?? "without a category"
            notes.append("line \(row.line): \(refusal); imported whole \(whole) (its \(row.splits.count) parts and their memos are not kept)")
            return nil
        }
        if let ruleCategory {
            notes.append("line \(row.line): its split parts keep their own categories; the rule's category \(ruleCategory) is not used")
        }
        return parts
    }
}
