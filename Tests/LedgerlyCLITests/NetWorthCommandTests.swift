import Foundation
@testable import LedgerlyCLI
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

/// `ledgerly asset …`, `liability …`, `networth` and `report networth` in-process against a real
/// store on a temporary home, with the figures worked out by hand (docs/networth.md).
@Suite(.serialized) struct NetWorthCommandTests {
    /// A ledger in EUR, all of it dated in the first quarter of 2026:
    /// - wallet Checking, starting balance 5000 (it exists from its first transaction, 02-01);
    /// - House: 250000 from 01-15, revalued to 262000 on 03-20 (tangible, core);
    /// - Art print: 1200 from 01-10, volatile (tangible, not core);
    /// - Claim: 900 USD from 02-01, intangible (core, not tangible); USD→EUR 0.90 from 03-30 only;
    /// - Mortgage: 180000 from 01-01, paid 950 from Checking on 02-01, statement 179420.55 on 03-31.
    struct Ledger {
        let harness: ServiceHarness
        let ledgerly: InProcessCLI
    }

    static func decode<Value: Decodable>(_ type: Value.Type, _ result: ServiceHarness.CommandResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> Value {
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode(type, from: Data(result.stdout.utf8))
    }

    static func expectSuccess(_ result: ServiceHarness.CommandResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
    }

    static func ledger() throws -> Ledger {
        let (harness, ledgerly) = try CommandLineTests.setUpStore()
        expectSuccess(ledgerly("wallet", "add", "Checking", "--currency", "EUR", "--starting-balance", "5000"))
        expectSuccess(ledgerly("asset", "add", "House", "--value", "250000", "--date", "2026-01-15"))
        expectSuccess(ledgerly("asset", "revalue", "house", "262000", "--date", "2026-03-20", "--notes", "agent estimate"))
        expectSuccess(ledgerly("asset", "add", "Art print", "--value", "1200", "--volatile", "--date", "2026-01-10"))
        expectSuccess(ledgerly("asset", "add", "Claim", "--value", "900", "--currency", "USD", "--type", "intangible", "--date", "2026-02-01"))
        expectSuccess(ledgerly("rates", "set", "USD", "EUR", "0.90", "--at", "2026-03-30"))
        expectSuccess(ledgerly("liability", "add", "Mortgage", "--balance", "180000", "--type", "mortgage", "--interest-rate", "3.1", "--date", "2026-01-01"))
        let paid = ledgerly("liability", "pay", "Mortgage", "950", "--from", "Checking", "--date", "2026-02-01")
        expectSuccess(paid)
        #expect(paid.stdout.hasPrefix("Paid 950.00 EUR of 'Mortgage' from 'Checking' (transaction "), "\(paid.stdout)")
        expectSuccess(ledgerly("liability", "revalue", "Mortgage", "179420.55", "--date", "2026-03-31", "--notes", "March statement"))
        return Ledger(harness: harness, ledgerly: ledgerly)
    }

    /// The words of each printed line, for table rows whatever their column widths.
    static func lines(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    /// The words of the first line whose first word is `first`.
    static func row(_ text: String, startingWith first: String) -> [String]? {
        lines(text).first { $0.first == first }
    }

    @Test func assetsAreAddedListedShownRevaluedEditedAndArchived() throws {
        let (_, ledgerly) = try CommandLineTests.setUpStore()
        let added = try Self.decode(ManualAssetRecord.self, ledgerly("asset", "add", "Art print", "--value", "1200", "--volatile", "--date", "2026-01-10", "--json"))
        #expect(added.assetType == .tangible)
        #expect(added.volatile && !added.includeInCore && added.includeInTangible, "volatile: out of core by default; tangible by its type")
        #expect(added.valuations?.map(\.date) == ["2026-01-10"])
        let claim = try Self.decode(ManualAssetRecord.self, ledgerly("asset", "add", "Claim", "--value", "900", "--currency", "USD", "--type", "intangible",
                                                                   "--date", "2026-02-01", "--json"))
        #expect(claim.includeInCore && !claim.includeInTangible)
        #expect(claim.currency == "USD")

        let words = ledgerly("asset", "add", "Car", "--value", "18000.50", "--date", "2026-01-20", "--core", "off")
        Self.expectSuccess(words)
        #expect(words.stdout.contains("'Car' (tangible, 18000.50 EUR on 2026-01-20, not in core)"), "\(words.stdout)")

        // A revaluation adds a value: both stay, and the asset's value is the latest.
        let revalued = ledgerly("asset", "revalue", "car", "16500", "--date", "2026-03-01", "--notes", "dealer quote")
        Self.expectSuccess(revalued)
        #expect(revalued.stdout.hasPrefix("Revalued asset "), "\(revalued.stdout)")
        let car = try Self.decode(ManualAssetRecord.self, ledgerly("asset", "show", "Car", "--json"))
        #expect(car.value == "16500.00")
        #expect(car.valuedOn == "2026-03-01")
        #expect(car.valuations?.map(\.value) == ["18000.50", "16500.00"])
        let shown = ledgerly("asset", "show", String(car.id))
        Self.expectSuccess(shown)
        #expect(Self.row(shown.stdout, startingWith: "2026-01-20")?.prefix(2) == ["2026-01-20", "18000.50"], "\(shown.stdout)")
        #expect(Self.row(shown.stdout, startingWith: "2026-03-01")?.prefix(5) == ["2026-03-01", "16500.00", "-1500.50", "dealer", "quote"], "\(shown.stdout)")

        let list = ledgerly("asset", "list")
        Self.expectSuccess(list)
        #expect(Self.row(list.stdout, startingWith: String(car.id)) == [String(car.id), "Car", "tangible", "16500.00", "EUR", "2026-03-01", "no", "yes", "no"], "\(list.stdout)")

        let edited = try Self.decode(ManualAssetRecord.self, ledgerly("asset", "edit", "Art print", "--volatile", "off", "--core", "on", "--notes", "framed", "--json"))
        #expect(!edited.volatile && edited.includeInCore)
        #expect(edited.notes == "framed")

        // Archived: out of the list, in it with --all.
        Self.expectSuccess(ledgerly("asset", "archive", "Claim"))
        #expect(try Self.decode(ManualAssetListReply.self, ledgerly("asset", "list", "--json")).assets.map(\.name) == ["Art print", "Car"])
        #expect(try Self.decode(ManualAssetListReply.self, ledgerly("asset", "list", "--all", "--json")).assets.map(\.name).sorted() == ["Art print", "Car", "Claim"])
    }

    @Test func aLiabilityShowsItsBalanceAfterEachEntryAndAPaymentIsATransactionFromTheWallet() throws {
        let ledger = try Self.ledger()
        let ledgerly = ledger.ledgerly
        let mortgage = try Self.decode(LiabilityRecord.self, ledgerly("liability", "show", "Mortgage", "--json"))
        // 180000 − 950 = 179050.00, then the statement sets 179420.55.
        #expect(mortgage.history?.map(\.kind) == [.balance, .payment, .balance])
        #expect(mortgage.history?.map(\.balanceAfter) == ["180000.00", "179050.00", "179420.55"])
        #expect(mortgage.balance == "179420.55")
        #expect(mortgage.balanceOn == "2026-03-31")
        #expect(mortgage.liabilityType == .mortgage)
        #expect(mortgage.interestRate == "3.1")

        let shown = ledgerly("liability", "show", "mortgage")
        Self.expectSuccess(shown)
        #expect(shown.stdout.contains("Balance:"), "\(shown.stdout)")
        #expect(Self.row(shown.stdout, startingWith: "2026-02-01")?.prefix(5) == ["2026-02-01", "payment", "-950.00", "179050.00", "Checking"], "\(shown.stdout)")
        #expect(Self.row(shown.stdout, startingWith: "2026-03-31")?.prefix(4) == ["2026-03-31", "balance", "179420.55", "179420.55"], "\(shown.stdout)")

        // The payment left the wallet: 5000 − 950.
        let wallets = try Self.decode(WalletListReply.self, ledgerly("wallet", "list", "--json"))
        #expect(wallets.wallets.first?.balance == "4050.00")

        // A second payment, in JSON: the liability and the wallet's transaction.
        let paid = try Self.decode(LiabilityPaymentReply.self, ledgerly("liability", "pay", "Mortgage", "420.55", "--from", "1", "--date", "2026-04-01", "--json"))
        #expect(paid.liability.balance == "179000.00")
        #expect(paid.transaction.kind == .expense)
        #expect(paid.transaction.amount == "420.55")
        #expect(paid.transaction.date.hasPrefix("2026-04-01"))

        let card = ledgerly("liability", "add", "Visa", "--balance", "420.15", "--type", "credit-card")
        Self.expectSuccess(card)
        #expect(card.stdout.contains("'Visa' (credit-card, balance 420.15 EUR on "), "\(card.stdout)")
        let list = ledgerly("liability", "list")
        #expect(Self.row(list.stdout, startingWith: String(mortgage.id))?.prefix(8) == [String(mortgage.id), "Mortgage", "mortgage", "179000.00", "EUR", "2026-04-01", "3.1", "%"],
                "\(list.stdout)")
        let edited = try Self.decode(LiabilityRecord.self, ledgerly("liability", "edit", "Visa", "--due", "2026-12-05", "--type", "other", "--json"))
        #expect(edited.dueDate == "2026-12-05")
        #expect(edited.liabilityType == .other)
        Self.expectSuccess(ledgerly("liability", "archive", "Visa"))
        #expect(try Self.decode(LiabilityListReply.self, ledgerly("liability", "list", "--json")).liabilities.map(\.name) == ["Mortgage"])
    }

    @Test func netWorthAtTheEndOfADayHasTheHandFigures() throws {
        let ledgerly = try Self.ledger().ledgerly
        // 2026-03-31: Checking 4050.00, House 262000.00, Art print 1200.00 (volatile), Claim
        // 900 × 0.90 = 810.00, Mortgage −179420.55.
        // assets 268060.00; net 268060.00 − 179420.55 = 88639.45; core without the art print
        // 87439.45; tangible without the claim 87829.45; volatile 1200.00.
        let march = try Self.decode(NetWorthReport.self, ledgerly("networth", "--at", "2026-03-31", "--json"))
        #expect(march.date == "2026-03-31")
        #expect(march.baseCurrency == "EUR")
        #expect(march.figures == NetWorthFigures(totalAssets: "268060.00", totalLiabilities: "179420.55", netWorth: "88639.45", core: "87439.45",
                                                 tangible: "87829.45", volatile: "1200.00"))
        #expect(march.complete)
        let claim = try #require(march.items.first { $0.name == "Claim" })
        #expect(claim.amount == "900.00")
        #expect(claim.baseValue == "810.00")
        #expect(claim.rate.flatMap(DecimalText.value) == DecimalText.value("0.90"), "the rate as a number, whatever its decimals")
        #expect(march.items.first { $0.name == "Mortgage" }?.baseValue == "-179420.55")

        let table = ledgerly("networth", "--at", "2026-03-31")
        Self.expectSuccess(table)
        #expect(table.stdout.hasPrefix("Net worth on 2026-03-31"), "\(table.stdout)")
        #expect(Self.row(table.stdout, startingWith: "Core")?.prefix(2) == ["Core", "87439.45"], "\(table.stdout)")
        #expect(Self.lines(table.stdout).contains(["Net", "worth", "88639.45"]), "\(table.stdout)")
        #expect(Self.row(table.stdout, startingWith: "liability")?.prefix(5) == ["liability", "Mortgage", "179420.55", "EUR", "-179420.55"], "\(table.stdout)")
        #expect(!table.stdout.contains("warning:"), "\(table.stdout)")

        // 2026-02-28: no USD rate yet, so the claim is not valued and is left out, said twice.
        // Checking 4050.00, House 250000.00, Art print 1200.00, Mortgage −179050.00.
        let february = try Self.decode(NetWorthReport.self, ledgerly("networth", "--at", "2026-02-28", "--json"))
        #expect(february.figures == NetWorthFigures(totalAssets: "255250.00", totalLiabilities: "179050.00", netWorth: "76200.00", core: "75000.00",
                                                    tangible: "76200.00", volatile: "1200.00"))
        #expect(!february.complete)
        #expect(february.items.first { $0.name == "Claim" }?.baseValue == nil)
        let unvalued = ledgerly("networth", "--at", "2026-02-28")
        Self.expectSuccess(unvalued)
        #expect(Self.row(unvalued.stdout, startingWith: "asset")?.isEmpty == false)
        #expect(unvalued.stdout.contains("not valued"), "\(unvalued.stdout)")
        #expect(unvalued.stdout.contains("warning: "), "\(unvalued.stdout)")
        #expect(unvalued.stdout.contains("Not complete: not valued in EUR, so left out of the figures: Claim ("), "\(unvalued.stdout)")

        // 2026-01-31: Checking has no transaction yet (it exists from 02-01), no claim yet.
        let january = try Self.decode(NetWorthReport.self, ledgerly("networth", "--at", "2026-01-31", "--json"))
        #expect(january.figures.netWorth == "71200.00")
        #expect(!january.items.contains { $0.name == "Checking" })

        // Today the March rate is long stale: used, and said.
        let today = ledgerly("networth")
        Self.expectSuccess(today)
        #expect(today.stdout.contains("warning: "), "\(today.stdout)")
    }

    @Test func theMonthlyReportListsTheSnapshotsWithAChartCSVAndJSON() throws {
        let ledger = try Self.ledger()
        let ledgerly = ledger.ledgerly
        let empty = ledgerly("report", "networth")
        Self.expectSuccess(empty)
        #expect(empty.stdout.hasPrefix("No net-worth snapshots yet. `ledgerly-alerts` takes one"), "\(empty.stdout)")
        #expect(empty.stdout.contains("Months waiting for their snapshot: 2026-01, 2026-02, 2026-03, …"), "\(empty.stdout)")

        // What ledgerly-alerts does at the end of each month.
        let client = ledger.harness.client()
        defer { client.close() }
        for month in ["2026-01", "2026-02", "2026-03"] {
            let taken = try client.call(NetWorthSnapshotTakeRequest(month: month), key: "networth:\(month)")
            #expect(taken.created)
        }

        let reply = try Self.decode(NetWorthSnapshotListReply.self, ledgerly("report", "networth", "--from", "2026-01", "--to", "2026-03", "--json"))
        #expect(reply.snapshots.map(\.month) == ["2026-01", "2026-02", "2026-03"])
        #expect(reply.snapshots.map(\.figures.netWorth) == ["71200.00", "76200.00", "88639.45"])
        #expect(reply.snapshots.map(\.figures.core) == ["70000.00", "75000.00", "87439.45"])
        #expect(reply.snapshots.map(\.complete) == [true, false, true])

        let table = ledgerly("report", "networth", "--from", "2026-01", "--to", "2026-03")
        Self.expectSuccess(table)
        #expect(Self.row(table.stdout, startingWith: "2026-01") == ["2026-01", "71200.00", "70000.00", "71200.00", "1200.00", "251200.00", "180000.00"], "\(table.stdout)")
        #expect(Self.row(table.stdout, startingWith: "2026-02") == ["2026-02", "76200.00", "75000.00", "76200.00", "1200.00", "255250.00", "179050.00", "not", "complete"],
                "\(table.stdout)")
        #expect(Self.row(table.stdout, startingWith: "2026-03") == ["2026-03", "88639.45", "87439.45", "87829.45", "1200.00", "268060.00", "179420.55"], "\(table.stdout)")
        // The chart: 80 columns and 12 lines (the test's output is no terminal: 80 × 24, half of it),
        // the highest and lowest net worth as its labels.
        let lines = table.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let title = try #require(lines.firstIndex(of: "Net worth (EUR), 2026-01 to 2026-03"), "\(table.stdout)")
        let chart = Array(lines[(title + 1)...].prefix(12))
        #expect(chart.first?.hasPrefix("88639.45 ┤") == true, "\(table.stdout)")
        #expect(chart[9].hasPrefix("71200.00 ┤"), "\(table.stdout)")
        #expect(chart[10].hasPrefix("         └┬"), "\(table.stdout)")
        #expect(chart[11].hasPrefix("          2026-01"), "\(table.stdout)")
        #expect(chart[11].hasSuffix("2026-03"), "\(table.stdout)")
        #expect(chart.allSatisfy { $0.count <= 80 }, "\(table.stdout)")

        let core = ledgerly("report", "networth", "--core")
        #expect(core.stdout.contains("Core net worth (EUR), 2026-01 to 2026-03\n87439.45 ┤"), "\(core.stdout)")
        let bare = ledgerly("report", "networth", "--tangible", "--no-chart")
        #expect(!bare.stdout.contains("┤"), "\(bare.stdout)")
        #expect(ledgerly("report", "networth", "--core", "--tangible").status == 64)

        let csv = ledgerly("report", "networth", "--csv")
        Self.expectSuccess(csv)
        let rows = csv.stdout.split(separator: "\r\n").map(String.init)
        #expect(rows.first == "month,date,base_currency,net_worth,core,tangible,volatile,total_assets,total_liabilities,complete,taken_at,not_valued")
        #expect(rows.count == 4)
        #expect(rows[1].hasPrefix("2026-01,2026-01-31,EUR,71200.00,70000.00,71200.00,1200.00,251200.00,180000.00,yes,"), "\(csv.stdout)")
        #expect(rows[2].hasPrefix("2026-02,2026-02-28,EUR,76200.00,75000.00,76200.00,1200.00,255250.00,179050.00,no,"), "\(csv.stdout)")
        #expect(rows[3].hasPrefix("2026-03,2026-03-31,EUR,88639.45,87439.45,87829.45,1200.00,268060.00,179420.55,yes,"), "\(csv.stdout)")

        // A back-dated valuation changes February and March computed now, never the snapshots.
        Self.expectSuccess(ledgerly("asset", "revalue", "Art print", "1500", "--date", "2026-02-15"))
        let again = try Self.decode(NetWorthSnapshotListReply.self, ledgerly("report", "networth", "--recompute", "--json"))
        #expect(again.snapshots.map(\.figures.netWorth) == ["71200.00", "76200.00", "88639.45"])
        #expect(again.snapshots.map { $0.recomputed?.netWorth } == ["71200.00", "76500.00", "88939.45"])
        #expect(again.snapshots.map(\.differs) == [false, true, true])
        let marked = ledgerly("report", "networth", "--recompute", "--no-chart")
        #expect(Self.row(marked.stdout, startingWith: "2026-01")?.suffix(1) == ["71200.00"], "\(marked.stdout)")
        #expect(Self.row(marked.stdout, startingWith: "2026-03")?.suffix(2) == ["88939.45", "≠"], "\(marked.stdout)")
        let recomputedCSV = ledgerly("report", "networth", "--recompute", "--csv").stdout.split(separator: "\r\n").map(String.init)
        #expect(recomputedCSV.first?.hasSuffix(",recomputed_net_worth,recomputed_core,recomputed_tangible,recomputed_volatile,recomputed_total_assets,recomputed_total_liabilities,differs") == true)
        #expect(recomputedCSV.last?.hasSuffix(",88939.45,87439.45,88129.45,1500.00,268360.00,179420.55,yes") == true, "\(recomputedCSV)")
    }

    @Test func badInputIsRefusedNamingTheOption() throws {
        let ledgerly = try Self.ledger().ledgerly
        let negative = ledgerly("asset", "add", "Boat", "--value", "-5")
        #expect(negative.status == 1)
        #expect(negative.stderr.hasPrefix("error: --value"), "\(negative.stderr)")
        #expect(!negative.stderr.contains("body."), "\(negative.stderr)")

        let negativeRevalue = ledgerly("asset", "revalue", "House", "-5")
        #expect(negativeRevalue.status == 1)
        #expect(negativeRevalue.stderr.contains("<value>"), "\(negativeRevalue.stderr)")

        let future = ledgerly("asset", "revalue", "House", "270000", "--date", "2099-01-01")
        #expect(future.status == 1)
        #expect(future.stderr.contains("--date"), "\(future.stderr)")
        let futureDebt = ledgerly("liability", "add", "Loan", "--balance", "100", "--date", "2099-01-01")
        #expect(futureDebt.status == 1)
        #expect(futureDebt.stderr.contains("--date"), "\(futureDebt.stderr)")
        #expect(!futureDebt.stderr.contains("balanceOn"), "\(futureDebt.stderr)")

        let nowhere = ledgerly("liability", "pay", "Mortgage", "10", "--from", "Nowhere")
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr.hasPrefix("error: --from: no wallet 'Nowhere' (wallets: Checking)"), "\(nowhere.stderr)")

        // More than the balance: a conflict naming the amount.
        let tooMuch = ledgerly("liability", "pay", "Mortgage", "999999", "--from", "Checking", "--date", "2026-04-01")
        #expect(tooMuch.status == 1)
        #expect(tooMuch.stderr.contains("<amount>"), "\(tooMuch.stderr)")

        let unknown = ledgerly("asset", "show", "Yacht")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("error: <asset>: no asset 'Yacht' (assets: "), "\(unknown.stderr)")
        #expect(ledgerly("liability", "add", "Loan", "--balance", "1", "--type", "mortage").status == 64)
        #expect(ledgerly("networth", "--at", "2099-01-01").stderr.contains("--at"))
        #expect(ledgerly("asset", "edit", "House").status == 64, "nothing to change")
    }

    @Test func speculativeGroupsAreSetAndShown() throws {
        let (_, ledgerly) = try CommandLineTests.setUpStore()
        let shown = ledgerly("settings")
        #expect(Self.row(shown.stdout, startingWith: "Speculative:") == ["Speculative:", "allocation", "groups", "speculative"], "\(shown.stdout)")
        let set = try Self.decode(SettingsRecord.self, ledgerly("settings", "set", "--speculative-groups", "crypto, moonshots", "--json"))
        #expect(set.speculativeGroups == ["crypto", "moonshots"])
        #expect(ledgerly("settings").stdout.contains("Speculative:       allocation groups crypto, moonshots"))
        let none = try Self.decode(SettingsRecord.self, ledgerly("settings", "set", "--speculative-groups", "", "--json"))
        #expect(none.speculativeGroups.isEmpty)
        #expect(ledgerly("settings").stdout.contains("Speculative:       no allocation group"))
    }

    @Test func everyCommandExplainsItsRules() throws {
        let ledgerly = InProcessCLI(harness: try ServiceHarness())
        /// The help's words, whatever the wrapping at 80 columns.
        func help(_ arguments: String...) -> String {
            ledgerly.run(arguments + ["--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        #expect(help("asset", "revalue").contains("A revaluation never overwrites: it adds a dated value"))
        #expect(help("asset").contains("--volatile its value swings: reported as volatile"))
        #expect(help("liability", "pay").contains("counted like a transfer: it is no spending"))
        #expect(help("networth").contains("core net worth without volatile assets and speculative holdings"))
        #expect(help("report", "networth").contains("`ledgerly-alerts` takes each ended month's snapshot"))
    }
}
