import ArgumentParser
import FoundationEssentials
import LedgerlyFiles
import LedgerlyCore
import Glibc
import LedgerlyInterchange
import LedgerlyProtocol

/// `ledgerly import csv|ofx|camt|qif|json|undo`: bank statements in, an export back, an import taken back.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a bank statement (CSV, OFX/QFX, CAMT.053, QIF) or a Ledgerly JSON export; undo an import.",
        subcommands: [BankCSV.self, OFX.self, CAMT.self, QIF.self, Mappings.self, JSON.self, Undo.self])

    /// Sends items in batches of one import (one SQL transaction and one event each), with a
    /// progress bar on a terminal. If a batch fails after others were applied, the import is
    /// taken back (`tx.import.undo`), so a file is imported entirely or not at all; a restore
    /// (`takeBack` false) keeps its transactions' own import ids, so it has nothing to undo by.
    static func send(_ items: [TransactionImportItem], importId: String, batchSize: Int, dryRun: Bool, takeBack: Bool = true, gateway: Gateway) throws -> (imported: Int, duplicates: [TransactionImportDuplicate]) {
        var progress = Progress(dryRun ? "checking" : "importing", total: items.count)
        var imported = 0
        var duplicates: [TransactionImportDuplicate] = []
        var done = 0
        var sent = false
        do {
            for batch in try batches(items, size: batchSize) {
                sent = true
                let reply = try gateway.call(TransactionImportRequest(importId: importId, items: batch, dryRun: dryRun))
                imported += reply.imported
                duplicates += reply.duplicates
                done += batch.count
                progress.update(done)
            }
        } catch let failure as CLIFailure {
            progress.finish()
            // Any batch sent may have been applied, even one whose reply was lost.
            guard !dryRun && sent && takeBack else { throw failure }
            let undone: Bool
            do {
                _ = try gateway.call(TransactionImportUndoRequest(importId: importId))
                undone = true
            } catch let undo as CLIFailure where undo.code == .notFound {
                undone = true  // no batch had been applied
            } catch {
                undone = false
            }
            guard undone else {
                throw CLIFailure(message: failure.message + "; some rows may have been imported", status: failure.status,
                                 hint: "take them back with `ledgerly import undo \(importId)` once the store answers")
            }
            throw CLIFailure(message: failure.message + "; nothing was imported", status: failure.status, hint: failure.hint)
        }
        progress.finish()
        return (imported, duplicates)
    }

    struct BankCSV: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "csv", abstract: "Import a bank statement (CSV) into a wallet.",
            discussion: """
                Without --mapping the columns are found by their names, in English, German, French or Spanish \
                (date/Buchungstag/Fecha, amount/Betrag/Montant/Importe or debit and credit, description/payee/\
                Verwendungszweck/Libellé/Concepto, currency/Währung/Devise). --mapping takes a mapping file (JSON: \
                columns, date format, decimal comma, rules; see docs/reports-import-export.md) or the name of one \
                shipped with Ledgerly (`ledgerly import mappings` lists them). Amounts may carry the row's currency \
                mark (12,50 €, EUR -3.20). Rows already imported into the wallet are skipped and reported; one bad \
                row imports nothing and names its line. With --json, standard output is the import's reply with every note \
                printed (notes).
                Example: ledgerly import csv statement.csv --wallet Checking \\
                           --mapping mybank.json --dry-run
                Example: ledgerly import csv umsaetze.csv --wallet Giro --mapping dkb \\
                           --rules rules.json
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var statement: StatementImportOptions
        @Option(help: "Column mapping and rules (a JSON file), or a shipped mapping's name (dkb, ing-de, n26).", completion: .file()) var mapping: String?
        @OptionGroup var batch: ImportBatchOptions

        func run() throws {
            try CommandRunner.run {
                var importer = try StatementImport(statement, global: global)
                let text = try importer.text()
                let extraRules = try importer.rules()
                let mapping = try self.mapping.map { try BankCSV.mapping($0, for: text, importer: importer) }
                let rows = try importer.refusing { () throws(BankStatementError) -> [BankStatementRow] in
                    var chosen = mapping
                    if !extraRules.isEmpty {
                        if chosen == nil { chosen = try BankCSVMapping.detect(text: text) }
                        chosen?.rules += extraRules
                    }
                    return try BankCSVImport.parse(text: text, mapping: chosen, defaultCurrency: importer.wallet.currency)
                }
                try importer.run(BankStatement(currency: nil, account: nil, rows: rows), prefix: "csv", json: output.json, batchSize: batch.batchSize)
            }
        }

        /// A mapping file, or a shipped mapping when no file has that name.
        static func mapping(_ reference: String, for text: String, importer: StatementImport) throws -> BankCSVMapping {
            if !FileManager.default.fileExists(atPath: reference), let shipped = BankCSVShippedMapping.named(reference) {
                return try importer.refusing { () throws(BankStatementError) in try shipped.mapping(for: text) }
            }
            if !FileManager.default.fileExists(atPath: reference), !reference.contains("/"), !reference.hasSuffix(".json") {
                throw CLIFailure(message: "no mapping file or shipped mapping named \(reference)", status: .refused,
                                 hint: "the shipped ones are \(BankCSVShippedMapping.all.map(\.name).joined(separator: ", ")) (`ledgerly import mappings`)")
            }
            let json = Data(try ImportCommand.read(reference).utf8)
            return try importer.refusing { () throws(BankStatementError) in try BankCSVMapping.decode(json: json) }
        }
    }

    /// A batch's frame must stay under the store's 16 MiB limit: long notes or restored rate
    /// snapshots make items large, so batches are cut at `size` items or 8 MiB, whichever comes first.
    static func batches(_ items: [TransactionImportItem], size: Int) throws -> [[TransactionImportItem]] {
        let maximumBytes = 8 << 20
        let encoder = JSONEncoder()
        var batches: [[TransactionImportItem]] = []
        var current: [TransactionImportItem] = []
        var bytes = 0
        for item in items {
            let itemBytes = try encoder.encode(item).count + 1
            if !current.isEmpty && (current.count == size || bytes + itemBytes > maximumBytes) {
                batches.append(current)
                current = []
                bytes = 0
            }
            current.append(item)
            bytes += itemBytes
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// The category a rule names: its full path ("Food/Groceries" or "Food:Groceries"), or a bare
    /// name that only one category has. An ambiguous name is refused rather than guessed.
    static func category(_ named: String, in categories: [CategoryRecord], file: String, line: Int) throws -> Int64 {
        let wanted = named.replacingEvery(":", with: "/")
        if let exact = categories.first(where: { $0.path.equalsIgnoringCase(wanted) }) { return exact.id }
        let byName = categories.filter { $0.name.equalsIgnoringCase(wanted) }
        guard byName.count <= 1 else {
            throw CLIFailure(message: "\(file) line \(line): a rule names category '\(named)', which could be \(byName.map(\.path).joined(separator: " or ")); nothing was imported",
                             status: .refused, hint: "write its full path in the mapping, e.g. \"category\": \"\(byName[0].path)\"")
        }
        guard let match = byName.first else {
            throw CLIFailure(message: "\(file) line \(line): a rule names category '\(named)', which does not exist; nothing was imported",
                             status: .refused, hint: "create it with `ledgerly category add`")
        }
        return match.id
    }

    static func summarise(_ reply: TransactionImportReply, rows: Int, file: String, wallet: String) {
        let style = TerminalStyle.standardOutput
        let verb = reply.dryRun ? "Would import" : "Imported"
        print("\(verb) \(reply.imported) of \(rows) rows from \(file) into \(wallet).")
        if !reply.duplicates.isEmpty {
            let lines = reply.duplicates.compactMap(\.line)
            let shown = lines.prefix(10).map(String.init).joined(separator: ", ") + (lines.count > 10 ? ", …" : "")
            print(style.yellow("\(reply.duplicates.count) duplicate(s) skipped (already imported): line\(lines.count == 1 ? "" : "s") \(shown)"))
        }
        if reply.dryRun { print(style.dim("Dry run: nothing was changed.")) }
        else if reply.imported > 0 { print(style.dim("Take it back with: ledgerly import undo \(reply.importId)")) }
    }

    /// The file's text; "-" reads standard input, as for most Unix tools (`… | ledgerly import csv -`).
    static func read(_ path: String) throws -> String {
        let contents = path == "-" ? try? PosixFile.standardInput.readToEnd() : FileManager.default.contents(atPath: path)
        guard let data = contents else {
            throw CLIFailure(message: "cannot read \(path)", status: .refused)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIFailure(message: "\(path) is not UTF-8 text", status: .refused, hint: "convert it first, e.g. iconv -f latin1 -t utf-8")
        }
        return text
    }

    struct JSON: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "json",
            abstract: "Rebuild a ledger from `ledgerly export json` (into a new, empty ledger).",
            discussion: """
                Everything comes back under the ids it had: wallets, categories, tags, rate profiles and rate \
                history, the alert log and conversion history, every transaction with its kept amounts and rates, \
                then budgets, goals with their contributions, and recurring templates where they had got to, \
                investments, and net worth (manual assets, liabilities, monthly snapshots).
                Set up the new ledger with the export's base currency first: ledgerly setup --base-currency EUR …
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The export file.", completion: .file()) var file: String
        @OptionGroup var batch: ImportBatchOptions

        func run() throws {
            try CommandRunner.run {
                let gateway = try Gateway(global, patientMilliseconds: 60_000, wording: ImportCommand.wording)
                // Standard input cannot be read twice: it is copied to a temporary file first.
                let source = try RestoreSource(file)
                defer { source.remove() }
                let header = try JSON.header(of: try source.reader(), file: file)
                let settings = try gateway.call(SettingsGetRequest())
                guard settings.baseCurrency == header.settings.baseCurrency else {
                    throw CLIFailure(message: "the export's base currency is \(header.settings.baseCurrency ?? "none") but this ledger's is \(settings.baseCurrency ?? "none"): the kept base amounts would be in the wrong currency",
                                     status: .refused, hint: "set up a new ledger (another --home) with --base-currency \(header.settings.baseCurrency ?? "…")")
                }
                // Every transaction is checked before anything is written: a first pass reads the
                // file through (in bounded memory), the second sends what it reads again.
                let checked = try JSON.check(source, header: header, file: file)

                let begin = LedgerRestoreBeginRequest(
                    wallets: header.wallets, categories: header.categories, tags: header.tags, rateProfiles: header.rateProfiles ?? [],
                    alerts: header.alerts ?? [], conversions: header.conversions ?? [])
                let finish = LedgerRestoreFinishRequest(
                    budgets: header.budgets, goals: header.goals ?? [], recurring: header.recurring ?? [],
                    archivedWalletIds: header.wallets.filter(\.archived).map(\.id))
                try JSON.requireOneFrame(begin, "its wallets, categories, alert log and conversion history", file: file)
                try JSON.requireOneFrame(finish, "its budgets, goals and recurring transactions", file: file)
                let investRestore = header.investments.flatMap { $0.isEmpty ? nil : InvestRestoreRequest(investments: $0) }
                if let investRestore { try JSON.requireOneFrame(investRestore, "its investments", file: file) }
                // Sent even when empty (an older file): it also drops any snapshot the alerts
                // service took of the half-restored ledger (D219).
                let netWorthRestore = NetWorthRestoreRequest(netWorth: header.netWorth ?? NetWorthRestore(assets: [], liabilities: [], snapshots: []))
                try JSON.requireOneFrame(netWorthRestore, "its manual assets, liabilities and net-worth snapshots", file: file)
                _ = try gateway.call(begin)
                do {
                    let saved = header.settings
                    _ = try gateway.call(SettingsUpdateRequest(
                        exchangeMode: saved.exchangeMode, priceRefreshIntervalMinutes: saved.priceRefreshIntervalMinutes, staleFiatMinutes: saved.staleFiatMinutes,
                        staleCryptoMinutes: saved.staleCryptoMinutes, staleEquityMinutes: saved.staleEquityMinutes,
                        allocationDriftPoints: saved.allocationDriftPoints, speculativeGroups: saved.speculativeGroups, cloudSync: saved.cloudSync, notifications: saved.notifications))
                    let rates = header.rates ?? []
                    for start in stride(from: 0, to: rates.count, by: RateRestoreRequest.maximumRates) {
                        _ = try gateway.call(RateRestoreRequest(rates: Array(rates[start..<min(start + RateRestoreRequest.maximumRates, rates.count)])))
                    }
                    let importId = "restore-" + UUID().uuidString.lowercased().prefix(8)
                    let result = try JSON.restoreTransactions(source, header: header, checked: checked, importId: importId, batchSize: batch.batchSize, gateway: gateway, file: file)
                    let finished = try gateway.call(finish)
                    if let investRestore { _ = try gateway.call(investRestore) }
                    // After the transactions: a liability's payments are linked to theirs.
                    _ = try gateway.call(netWorthRestore)
                    print("""
                        Restored from \(file): \(header.wallets.count) wallets, \(header.categories.count) categories, \(checked.records) transactions \
                        (\(result.imported) entries, transfers counted once), \(rates.count) rates, \(finished.budgets) budgets, \(finished.goals) goals \
                        (\(finished.contributions) contributions), \(finished.recurring) recurring, \(header.alerts?.count ?? 0) alerts, \(header.investments?.trades.count ?? 0) investment trades, \
                        \(header.netWorth?.assets.count ?? 0) manual assets, \(header.netWorth?.liabilities.count ?? 0) liabilities, \(header.netWorth?.snapshots.count ?? 0) net-worth snapshots.
                        """)
                } catch let failure as CLIFailure {
                    throw CLIFailure(message: failure.message + "; the ledger is only part restored", status: failure.status,
                                     hint: (failure.hint.map { $0 + "; then " } ?? "") + "restore into another new home (--home or LEDGERLY_HOME)")
                }
            }
        }

        /// `ledger.restore.begin` and `.finish` are one message each: refused before anything is
        /// written when one would pass the store's 16 MiB frame limit.
        static func requireOneFrame<Request: Encodable>(_ request: Request, _ what: String, file: String) throws {
            let bytes = try JSONEncoder().encode(request).count
            guard bytes < 15 << 20 else {
                throw CLIFailure(message: "\(file): \(what) take \(bytes >> 20) MiB, more than one message to the store can carry (16 MiB); nothing was restored", status: .refused)
            }
        }

        /// The header, refused when it is not an export this Ledgerly reads.
        static func header(of reader: LedgerExportReader, file: String) throws -> LedgerExport.Header {
            let header: LedgerExport.Header
            do {
                header = try reader.readHeader()
            } catch {
                throw CLIFailure(message: "\(file) is not a Ledgerly JSON export: \(error)", status: .refused)
            }
            guard header.format == LedgerExport.Header.formatName, header.version <= LedgerExport.Header.currentVersion else {
                throw CLIFailure(message: "\(file) is format '\(header.format)' version \(header.version); this Ledgerly reads \(LedgerExport.Header.formatName) up to version \(LedgerExport.Header.currentVersion)", status: .refused)
            }
            return header
        }
    }

    struct Undo: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "undo", abstract: "Delete every transaction an import recorded.",
                                                        discussion: "The import id is printed by `ledgerly import csv|ofx|camt|qif` (e.g. csv-1f2e3d4c, ofx-5a6b7c8d).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The import id.") var importId: String

        static var patientMilliseconds: Int? { 60_000 }

        var wording: FieldWording { ImportCommand.wording.adding(["importId": "<import-id>"]) }

        func reply(from gateway: Gateway) throws -> TransactionImportUndoReply {
            try gateway.call(TransactionImportUndoRequest(importId: importId))
        }

        func render(_ reply: TransactionImportUndoReply, gateway: Gateway) throws {
            print("Deleted the \(reply.deleted) transactions of import \(reply.importId).")
        }
    }
}

extension ImportCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["walletId": "--wallet", "categoryId": "--category"]
}
