import ArgumentParser
import FoundationEssentials
import LedgerlyInterchange
import LedgerlyProtocol

/// `ledgerly export journal|beancount|csv|json`: the ledger in a form other tools read, at any time.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the ledger as an hledger journal or beancount file, transactions as CSV, or everything as JSON.",
        discussion: """
            journal: wallets and categories as accounts, amounts in their currencies with @@ prices in the \
            base currency from the kept rates, so `hledger -f FILE bal` and `hledger -f FILE bal -B` give the \
            balances and category totals `ledgerly report` gives; manual assets and liabilities at their \
            valuations and balances (assets:manual:…, liabilities:…). beancount: the same entries in \
            beancount's syntax, for bean-check and Fava. csv: one row per transaction.
            json: everything Ledgerly needs to rebuild the ledger (`ledgerly import json`).
            """,
        subcommands: [Journal.self, Beancount.self, CSV.self, JSON.self])

    /// What every export reads first: settings, wallets (archived too) and categories.
    struct Ledger {
        let settings: SettingsRecord
        let wallets: [WalletRecord]
        let categories: [CategoryRecord]

        init(_ gateway: Gateway) throws {
            settings = try gateway.call(SettingsGetRequest())
            wallets = try gateway.call(WalletListRequest(includeArchived: true)).wallets
            categories = try gateway.call(CategoryListRequest()).categories
        }
    }

    /// Pages every transaction (by id) to `body`, a page at a time, with progress on a terminal
    /// when writing a file. Pages are the largest the protocol allows (10,000 records, about 6 MB
    /// of JSON), and the next is fetched while `body` works on this one (D262).
    /// `conversions` false: the store sends the records without their rate snapshots, for a
    /// writer that does not show them (`TransactionExportRequest.conversions`).
    static func eachPage(_ gateway: Gateway, pageSize: Int, order: TransactionExportOrder = .id, conversions: Bool, showProgress: Bool,
                         _ body: (Gateway.ExportPage) throws -> Void) throws -> Int {
        var count = 0
        var progress: Progress?
        try gateway.exportPages(pageSize: pageSize, order: order, conversions: conversions) { page in
            if let total = page.reply.total, showProgress { progress = Progress("exporting", total: total) }
            try body(page)
            count += page.reply.transactions.count
            progress?.update(count)
        }
        progress?.finish()
        return count
    }

    /// `eachPage`, a record at a time.
    static func eachTransaction(_ gateway: Gateway, pageSize: Int, order: TransactionExportOrder = .id, conversions: Bool, showProgress: Bool,
                                _ body: (TransactionRecord) throws -> Void) throws -> Int {
        try eachPage(gateway, pageSize: pageSize, order: order, conversions: conversions, showProgress: showProgress) { page in
            for record in page.reply.transactions { try body(record) }
        }
    }

    struct Destination: ParsableArguments {
        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to this file instead of standard output (- is standard output).", valueName: "file"), completion: .file())
        var output: String?
        /// Transactions per `tx.export` page; for tests that need many pages from a small ledger.
        @Option(name: .customLong("page-size"), help: ArgumentHelp(visibility: .hidden))
        var pageSize = 5_000
    }

    /// Opens the destination, runs `body`, and puts the file in place only if all went well.
    static func write(to destination: Destination, global: GlobalOptions, _ body: (Gateway, OutputFile) throws -> String) throws {
        try CommandRunner.run {
            let gateway = try Gateway(global, patientMilliseconds: 60_000)
            let file = try OutputFile(path: destination.output)
            do {
                let summary = try body(gateway, file)
                try file.finish()
                if !file.isStandardOutput { print(summary) }
            } catch {
                file.abandon()
                throw error
            }
        }
    }

    struct Journal: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "journal", abstract: "An hledger/ledger journal of every transaction.",
                                                        discussion: "Example: ledgerly export journal -o ledger.journal &&\n           hledger -f ledger.journal bal")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var destination: Destination

        func run() throws {
            try ExportCommand.writeJournal(.ledger, to: destination, global: global)
        }
    }

    struct Beancount: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "beancount", abstract: "A beancount ledger of every transaction (the journal's entries in beancount's syntax).",
            discussion: """
                Accounts are renamed as beancount requires (Assets:Café-Wallet, Expenses:X-日本食); notes are kept \
                whole as the narration; Ledgerly's ids are metadata.
                Example: ledgerly export beancount -o ledger.beancount &&
                           bean-check ledger.beancount
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var destination: Destination

        func run() throws {
            try ExportCommand.writeJournal(.beancount, to: destination, global: global)
        }
    }

    /// The journal in `dialect`: the header, then every entry in date order.
    static func writeJournal(_ dialect: JournalDialect, to destination: Destination, global: GlobalOptions) throws {
        try ExportCommand.write(to: destination, global: global) { gateway, file in
            let ledger = try Ledger(gateway)
            var writer = JournalWriter(baseCurrency: ledger.settings.baseCurrency, wallets: ledger.wallets, categories: ledger.categories, dialect: dialect)
            let investments = try JSON.investments(gateway).map(InvestmentJournal.init)
            writer.replacedTransactionIds = investments?.replacedTransactionIds ?? []
            let netWorth = try JSON.netWorth(gateway).map(NetWorthJournal.init)
            writer.payments = netWorth?.payments ?? [:]
            // Trades, valuations and liability balances go among the transactions by date,
            // which come in (date, id) order, so the journal's dates never go back (D322).
            var dated = DatedEntries()
            investments?.entries(declaringWith: &writer, into: &dated)
            netWorth?.entries(declaringWith: &writer, into: &dated)
            try file.write(writer.header())
            try file.write(dated.directives)
            // Starting balances are dated no later than the first transaction (of any kind, transfers
            // included) or other entry: history may be imported after the wallets were created.
            let firstDay = try gateway.call(TransactionExportRequest(limit: 1, order: .date)).transactions.first?.date
            let opening = (ledger.wallets.map { String($0.createdAt.prefix(10)) } + [firstDay, dated.firstDate].compactMap { $0 }).min() ?? "1970-01-01"
            try file.write(writer.openingBalances(date: opening))
            let count = try ExportCommand.eachTransaction(gateway, pageSize: destination.pageSize, order: .date, conversions: false,
                                                          showProgress: !file.isStandardOutput) {
                try file.write(dated.before($0.date))
                try file.write(writer.entry(for: $0))
            }
            try file.write(dated.rest())
            try file.write(writer.finish())
            let skipped = writer.skippedTransactionIds.isEmpty ? "" : " (\(writer.skippedTransactionIds.count) written as comments: their records could not be read)"
            return "Exported \(count) transactions to \(destination.output ?? "-")\(skipped)."
        }
    }

    struct CSV: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "csv", abstract: "Every transaction as a CSV row.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var destination: Destination

        func run() throws {
            try ExportCommand.write(to: destination, global: global) { gateway, file in
                let ledger = try Ledger(gateway)
                let writer = TransactionCSVWriter(wallets: ledger.wallets, categories: ledger.categories)
                try file.write(writer.header())
                let count = try ExportCommand.eachTransaction(gateway, pageSize: destination.pageSize, conversions: false,
                                                              showProgress: !file.isStandardOutput) { try file.write(writer.row(for: $0)) }
                return "Exported \(count) transactions to \(destination.output ?? "-")."
            }
        }
    }
}

extension ExportCommand {
    struct JSON: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "json",
            abstract: "Everything as JSON: settings, wallets, categories, tags, budgets, rates, goals, recurring, alerts, transactions.",
            discussion: """
                Lossless: every record keeps its id, its times and the amounts and rates it was recorded with.
                Re-import into a new, empty ledger with `ledgerly import json FILE`.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var destination: Destination

        func run() throws {
            try ExportCommand.write(to: destination, global: global) { gateway, file in
                let ledger = try Ledger(gateway)
                let goals = try gateway.call(GoalListRequest()).goals.map { goal in
                    GoalRestore(goal: goal, contributions: try gateway.call(GoalContributionsRequest(id: goal.id)).contributions)
                }
                let header = LedgerExport.Header(
                    exportedAt: Timestamp.now(), settings: ledger.settings, wallets: ledger.wallets, categories: ledger.categories,
                    tags: try gateway.call(TagListRequest()).tags, budgets: try gateway.call(BudgetListRequest()).budgets,
                    rateProfiles: try gateway.call(RateProfileListRequest()).profiles, rates: try JSON.rates(gateway), goals: goals,
                    recurring: try gateway.call(RecurringListRequest()).recurring, alerts: try JSON.alerts(gateway), conversions: try JSON.conversions(gateway),
                    investments: try JSON.investments(gateway), netWorth: try JSON.netWorth(gateway))
                try file.write(try LedgerExport.opening(header))
                var first = true
                var bytes: [UInt8] = []
                var snapshots = TransactionExportCoding.SnapshotBytes()
                let count = try ExportCommand.eachPage(gateway, pageSize: destination.pageSize, conversions: true, showProgress: !file.isStandardOutput) { page in
                    bytes.removeAll(keepingCapacity: true)
                    // A record read without `JSONDecoder` is written as the store wrote it: the
                    // same encoder made it (`TransactionExportCoding.append`), so the bytes are
                    // those writing it again would give, without the work (D366).
                    if let records = page.recordBytes {
                        for range in records.ranges {
                            LedgerExport.appendTransactionBytes(records.frame[range], first: first, to: &bytes)
                            first = false
                        }
                    } else {
                        for record in page.reply.transactions {
                            LedgerExport.appendTransaction(record, first: first, to: &bytes, snapshots: &snapshots)
                            first = false
                        }
                    }
                    try file.write(bytes: bytes)
                }
                try file.write(LedgerExport.end)
                return "Exported \(count) transactions, \(header.rates?.count ?? 0) rates, \(goals.count) goals, \(header.recurring?.count ?? 0) recurring, \(header.alerts?.count ?? 0) alerts, \(header.investments?.trades.count ?? 0) investment trades, \(header.netWorth?.assets.count ?? 0) manual assets, \(header.netWorth?.liabilities.count ?? 0) liabilities and \(header.netWorth?.snapshots.count ?? 0) net-worth snapshots to \(destination.output ?? "-")."
            }
        }

        /// Every page of a history, oldest first: `page(after)` gives the records and where the next page starts.
        private static func pages<Record>(_ page: (Int64?) throws -> (records: [Record], next: Int64?)) rethrows -> [Record] {
            var all: [Record] = []
            var after: Int64?
            repeat {
                let (records, next) = try page(after)
                all += records
                after = next
            } while after != nil
            return all
        }

        static func rates(_ gateway: Gateway) throws -> [RateRecord] {
            try pages { after in
                let reply = try gateway.call(RateExportRequest(afterId: after, limit: RateExportRequest.maximumLimit))
                return (reply.rates, reply.nextAfterId)
            }
        }

        static func alerts(_ gateway: Gateway) throws -> [AlertRecord] {
            let limit = 10_000
            return try pages { after in
                let alerts = try gateway.call(AlertListRequest(afterId: after ?? 0, limit: limit)).alerts
                return (alerts, alerts.count == limit ? alerts.last?.id : nil)
            }
        }

        static func conversions(_ gateway: Gateway) throws -> [ConversionRecord] {
            let limit = 1_000
            return try pages { after in
                let conversions = try gateway.call(ConversionHistoryRequest(limit: limit, afterId: after ?? 0)).conversions
                return (conversions, conversions.count == limit ? conversions.last?.id : nil)
            }
        }

        /// Accounts (archived too), assets, every trade, every price snapshot kept and the
        /// allocation targets; nil when the ledger has none, so a file without investments stays
        /// as it was.
        static func investments(_ gateway: Gateway) throws -> InvestmentRestore? {
            let assets = try gateway.call(AssetListRequest()).assets
            var prices: [PriceSnapshotRecord] = []
            for asset in assets { prices += try gateway.call(PriceHistoryRequest(assetId: asset.id, since: "1970-01-01")).prices }
            var targets: [AllocationTargetRecord] = []
            for dimension in AllocationDimension.allCases {
                for line in try gateway.call(AllocationShowRequest(dimension: dimension)).lines {
                    if let percent = line.target { targets.append(AllocationTargetRecord(dimension: dimension, key: line.key, percent: percent)) }
                }
            }
            let investments = InvestmentRestore(
                accounts: try gateway.call(InvestAccountListRequest(includeArchived: true)).accounts, assets: assets,
                trades: try gateway.call(TradeListRequest()).trades, prices: prices, targets: targets)
            return investments.isEmpty ? nil : investments
        }

        /// Manual assets and liabilities (archived too), each read again on its own for its whole
        /// history (lists leave it out), and every monthly snapshot with its breakdown; nil when
        /// the ledger has none, so a file without net worth stays as it was.
        static func netWorth(_ gateway: Gateway) throws -> NetWorthRestore? {
            let assets = try gateway.call(ManualAssetListRequest(includeArchived: true)).assets.map { try gateway.call(ManualAssetGetRequest(id: $0.id)) }
            let liabilities = try gateway.call(LiabilityListRequest(includeArchived: true)).liabilities.map { try gateway.call(LiabilityGetRequest(id: $0.id)) }
            let snapshots = try gateway.call(NetWorthSnapshotListRequest(includeItems: true)).snapshots
            let netWorth = NetWorthRestore(assets: assets, liabilities: liabilities, snapshots: snapshots)
            return netWorth.isEmpty ? nil : netWorth
        }
    }
}
