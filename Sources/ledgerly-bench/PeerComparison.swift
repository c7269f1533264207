import Foundation
import LedgerlyCore
import LedgerlyInterchange
import LedgerlyProtocol
import LedgerlyRuntime

/// The second half of `ledgerly-bench ledger`: on the loaded ledger exported as a journal, the same
/// reports timed with `ledger` and `hledger` (when installed), the ratios printed, and Ledgerly's
/// wallet balances and category totals checked against hledger's. Any difference fails the run.
/// What it timed is returned for the scaling table.
struct PeerComparison {
    /// One peer command timed against the Ledgerly report it is compared with.
    struct Timing {
        let tool: String
        /// The peer's command line without the journal, "ledger bal".
        let command: String
        /// The Ledgerly report it is compared with, "report balance".
        let counterpart: String
        /// nil: stopped at `limit`.
        let time: Duration?
        let ours: Duration
    }

    let home: LedgerlyHome
    /// The loaded ledger exported as a journal (`BulkPathRun`).
    let journal: URL
    let client: RequestClient
    let cli: CommandTimer
    let runs: Int
    /// A peer's run still going after this is stopped; its ratio is then a lower bound.
    let limit: Duration
    /// Ledgerly's CLI medians by report name, for the ratios.
    let ledgerlyMedians: [String: Duration]

    func run() throws -> [Timing] {
        // (peer, what it is compared with, arguments)
        let peers: [(String, String, [String])] = [
            ("ledger", "report balance", ["-f", journal.path, "bal"]),
            ("ledger", "report categories --monthly", ["-f", journal.path, "-M", "reg", "^expenses"]),
            ("hledger", "report balance", ["-f", journal.path, "bal"]),
            ("hledger", "report categories --monthly", ["-f", journal.path, "bal", "-M", "expenses"]),
        ]
        var timings: [Timing] = []
        for (tool, counterpart, arguments) in peers {
            guard let path = Self.installed(tool) else {
                print("\(tool): not installed, skipped")
                continue
            }
            let ours = ledgerlyMedians[counterpart] ?? .zero
            let command = arguments.dropFirst(2).joined(separator: " ")
            let timed = try cli.time(path, arguments, runs: runs, limit: limit)
            timings.append(Timing(tool: tool, command: "\(tool) \(command)", counterpart: counterpart, time: timed?.median, ours: ours))
            guard let timed else {
                print(String(format: "%@ %@: did not finish in %.0f s, stopped — ledgerly %@ %.1f ms: more than %.0fx faster",
                             tool, command, limit.seconds, counterpart, ours.milliseconds, limit.seconds / max(ours.seconds, 1e-9)))
                continue
            }
            print(String(format: "%@ %@: %.2f s (%d run%@) — ledgerly %@ %.1f ms: %.0fx faster",
                         tool, command, timed.median.seconds, runs, runs == 1 ? "" : "s, median",
                         counterpart, ours.milliseconds, timed.median.seconds / max(ours.seconds, 1e-9)))
        }
        try compareTotals(journal: journal)
        return timings
    }

    /// Wallet balances (`hledger bal assets`) and category totals at cost in the base currency
    /// (`hledger bal -B --tree --no-elide expenses income`, parents inclusive) against Ledgerly's reports.
    private func compareTotals(journal: URL) throws {
        guard let hledger = Self.installed("hledger") else {
            print("hledger: not installed, totals not compared")
            return
        }
        let settings = try client.call(SettingsGetRequest())
        let wallets = try client.call(WalletListRequest(includeArchived: true)).wallets
        let categories = try client.call(CategoryListRequest()).categories
        let writer = JournalWriter(baseCurrency: settings.baseCurrency, wallets: wallets, categories: categories)
        let balances = Self.amounts(try cli.output(hledger, ["-f", journal.path, "bal", "assets", "-O", "csv", "--layout=bare"]))
        let totals = Self.amounts(try cli.output(hledger, ["-f", journal.path, "bal", "-B", "--tree", "--no-elide", "-O", "csv", "--layout=bare", "expenses", "income"]))

        var mismatches: [String] = []
        for wallet in try client.call(BalanceReportRequest(includeArchived: true)).wallets {
            let account = writer.walletAccount(wallet.walletId)
            let theirs = balances[account]?[wallet.currency] ?? "0"
            if !Self.same(wallet.balance, theirs, wallet.currency) { mismatches.append("\(account): ledgerly \(wallet.balance) \(wallet.currency), hledger \(theirs)") }
        }
        let base = settings.baseCurrency ?? ""
        let report = try client.call(CategoryReportRequest())
        for row in report.categories {
            let account = writer.categoryAccount(row.categoryId, kind: row.kind == .expense ? .expense : .income)
            // hledger shows income as negative (a credit); Ledgerly shows it received, positive.
            var theirs = totals[account]?[base] ?? "0"
            if row.kind == .income { theirs = theirs.hasPrefix("-") ? String(theirs.dropFirst()) : "-" + theirs }
            if !Self.same(row.total, theirs, base) { mismatches.append("\(account): ledgerly \(row.total) \(base), hledger \(theirs)") }
        }
        guard mismatches.isEmpty else {
            mismatches.forEach { print("MISMATCH \($0)") }
            throw BenchmarkError.mismatch("\(mismatches.count) totals differ between ledgerly and hledger")
        }
        print("totals: all \(wallets.count) wallet balances and \(report.categories.count) category totals agree with hledger")
    }

    /// account → commodity → amount, from `hledger bal -O csv --layout=bare`.
    private static func amounts(_ csv: String) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for line in csv.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"\r")) }
            guard fields.count == 3 else { continue }
            result[fields[0], default: [:]][fields[1]] = fields[2]
        }
        return result
    }

    /// The same amount in `currency`, however each side writes it.
    private static func same(_ ours: String, _ theirs: String, _ currency: String) -> Bool {
        guard let code = try? Currency(code: currency),
              let left = try? Money(parsing: ours, currency: code),
              let right = try? Money(parsing: theirs.replacingOccurrences(of: ",", with: ""), currency: code)
        else { return ours == theirs }
        return left == right
    }

    private static func installed(_ tool: String) -> String? {
        ["/usr/bin/\(tool)", "/usr/local/bin/\(tool)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
