import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

/// `ledgerly invest …` in-process against a real store on a temporary home: the worked example of
/// docs/investments.md end to end through the CLI, with the figures worked out by hand.
@Suite(.serialized) struct InvestCommandTests {
    /// A ledger in EUR with a manually priced USD asset and one EUR account per cost-basis method,
    /// each holding the worked example: buy 10 @ 100 at 0.90, buy 5 @ 120 at 0.95, sell 8 @ 130
    /// at 0.92, fee 1 each.
    struct WorkedExample {
        let harness: ServiceHarness
        let ledgerly: InProcessCLI
        /// Method → (buy 1, buy 2, sale) trade ids.
        var trades: [String: (first: Int64, second: Int64, sale: Int64)] = [:]
    }

    static func decode<Value: Decodable>(_ type: Value.Type, _ result: ServiceHarness.CommandResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> Value {
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode(type, from: Data(result.stdout.utf8))
    }

    static func workedExample() throws -> WorkedExample {
        let (harness, ledgerly) = try CommandLineTests.setUpStore()
        var example = WorkedExample(harness: harness, ledgerly: ledgerly)
        let asset = ledgerly("invest", "asset", "add", "AAPL", "--type", "stock", "--currency", "USD", "--provider", "manual", "--group", "core")
        #expect(asset.status == 0, "\(asset.stderr)")
        for method in ["fifo", "lifo", "average"] {
            let account = ledgerly("invest", "account", "add", method.uppercased(), "--base-currency", "EUR", "--method", method)
            #expect(account.status == 0, "\(account.stderr)")
            let first = try decode(TradeRecord.self, ledgerly(
                "invest", "buy", "AAPL", "--account", method.uppercased(), "--quantity", "10", "--price", "100", "--fee", "1", "--rate", "0.90", "--date", "2026-01-02", "--json"))
            let second = try decode(TradeRecord.self, ledgerly(
                "invest", "buy", "aapl", "--account", method.uppercased(), "--quantity", "5", "--price", "120", "--fee", "1", "--rate", "0.95", "--date", "2026-02-02", "--json"))
            let sale = try decode(TradeRecord.self, ledgerly(
                "invest", "sell", "AAPL", "--account", method.uppercased(), "--quantity", "8", "--price", "130", "--fee", "1", "--rate", "0.92", "--date", "2026-03-02", "--json"))
            example.trades[method] = (first.id, second.id, sale.id)
        }
        return example
    }

    static func expectRealised(_ realised: RealisedGain?, cost: String, costBase: String, gain: String, priceEffect: String, currencyEffect: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(realised?.quantity == "8", sourceLocation: sourceLocation)
        #expect(realised?.cost == cost, sourceLocation: sourceLocation)
        #expect(realised?.proceeds == "1039.00", sourceLocation: sourceLocation)
        #expect(realised?.costBase == costBase, sourceLocation: sourceLocation)
        #expect(realised?.proceedsBase == "955.88", sourceLocation: sourceLocation)
        #expect(realised?.gain == gain, sourceLocation: sourceLocation)
        #expect(realised?.priceEffect == priceEffect, sourceLocation: sourceLocation)
        #expect(realised?.currencyEffect == currencyEffect, sourceLocation: sourceLocation)
    }

    @Test func theWorkedExampleGivesTheHandFiguresForEachMethod() throws {
        let example = try Self.workedExample()
        let ledgerly = example.ledgerly

        // FIFO takes 8 of lot 1: cost 800.80 USD, base 720.72 EUR; currency effect 736.74 − 720.72.
        let fifo = try Self.decode(GainsReply.self, ledgerly("invest", "gains", "--account", "FIFO", "--json"))
        #expect(fifo.sales.count == 1)
        Self.expectRealised(fifo.sales.first?.realised, cost: "800.80", costBase: "720.72", gain: "235.16", priceEffect: "219.14", currencyEffect: "16.02")
        #expect(fifo.sales.first?.lots.map(\.lotId) == [example.trades["fifo"]?.first].compactMap { $0 })
        #expect(fifo.totals.map(\.gain) == ["235.16"])

        // LIFO takes lot 2 whole (currency effect 552.92 − 570.95) and 3 of lot 1 (276.28 − 270.27).
        let lifo = try Self.decode(GainsReply.self, ledgerly("invest", "gains", "--account", "LIFO", "--json"))
        Self.expectRealised(lifo.sales.first?.realised, cost: "901.30", costBase: "841.22", gain: "114.66", priceEffect: "126.68", currencyEffect: "-12.02")
        let lots = lifo.sales.first?.lots ?? []
        #expect(lots.map(\.lotId) == [example.trades["lifo"]?.second, example.trades["lifo"]?.first].compactMap { $0 })
        #expect(lots.map(\.realised.quantity) == ["5", "3"])
        #expect(lots.map(\.realised.cost) == ["601.00", "300.30"])
        #expect(lots.map(\.realised.costBase) == ["570.95", "270.27"])
        #expect(lots.map(\.realised.currencyEffect) == ["-18.03", "6.01"])

        // Average: 15 units cost 1602.00 USD, 1471.85 EUR; 8 take 854.40 USD and round(1471.85 × 8 / 15) = 784.99 EUR.
        let averageJSON = ledgerly("invest", "gains", "--account", "AVERAGE", "--json")
        let average = try Self.decode(GainsReply.self, averageJSON)
        Self.expectRealised(average.sales.first?.realised, cost: "854.40", costBase: "784.99", gain: "170.89", priceEffect: "169.83", currencyEffect: "1.06")
        #expect(averageJSON.stdout.contains("\"method\" : \"average\""), "\(averageJSON.stdout)")

        // The table reads the same figures; the help states the rule.
        let table = ledgerly("invest", "gains", "--account", "FIFO", "--year", "2026")
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("235.16 EUR"), "\(table.stdout)")
        #expect(table.stdout.contains("Total EUR: proceeds 955.88, cost 720.72, gain 235.16 (price effect 219.14, currency effect 16.02)"), "\(table.stdout)")
        let help = ledgerly("invest", "gains", "--help", home: false)
        #expect(help.stdout.contains("gain           = proceedsBase − costBase"))
        #expect(help.stdout.contains("currencyEffect = round(cost × R₁) − costBase"))
        #expect(help.stdout.contains("priceEffect    = gain − currencyEffect"))
        #expect(help.stdout.contains("q(P₁ − P₀)R₁") && help.stdout.contains("qP₀(R₁ − R₀)"))
        #expect(try Self.decode(GainsReply.self, ledgerly("invest", "gains", "--year", "2025", "--json")).sales.isEmpty)
    }

    @Test func deletingTheSecondBuyRecomputesTheSale() throws {
        let example = try Self.workedExample()
        let ledgerly = example.ledgerly
        let ids = try #require(example.trades["lifo"])
        // Without lot 2, LIFO takes 8 of lot 1 alone: cost round(1001.00 × 8 / 10) = 800.80 USD,
        // base round(900.90 × 8 / 10) = 720.72 EUR; gain 955.88 − 720.72 = 235.16; currency
        // effect round(800.80 × 0.92) − 720.72 = 736.74 − 720.72 = 16.02; price effect 219.14.
        let deleted = try Self.decode(TradeDeleteReply.self, ledgerly("invest", "delete", String(ids.second), "--json"))
        #expect(deleted.deleted.id == ids.second)
        #expect(deleted.recomputed.map(\.id) == [ids.sale])
        Self.expectRealised(deleted.recomputed.first?.realised, cost: "800.80", costBase: "720.72", gain: "235.16", priceEffect: "219.14", currencyEffect: "16.02")
        let gains = try Self.decode(GainsReply.self, ledgerly("invest", "gains", "--account", "LIFO", "--json"))
        Self.expectRealised(gains.sales.first?.realised, cost: "800.80", costBase: "720.72", gain: "235.16", priceEffect: "219.14", currencyEffect: "16.02")
        let trades = try Self.decode(TradeListReply.self, ledgerly("invest", "trades", "--account", "LIFO", "--json"))
        #expect(trades.trades.map(\.id) == [ids.first, ids.sale])

        // In words: the deleted trade, then the sale as it is now.
        let again = ledgerly("invest", "delete", String(ids.first))
        #expect(again.status == 1, "a sale would lose its units: \(again.stdout)")
        #expect(!again.stderr.contains("body."), "\(again.stderr)")
    }

    @Test func holdingsUseAManualPriceAndTodaysRate() throws {
        let example = try Self.workedExample()
        let ledgerly = example.ledgerly
        #expect(ledgerly("rates", "set", "USD", "EUR", "0.92").status == 0)
        let price = ledgerly("invest", "prices", "set", "AAPL", "140")
        #expect(price.status == 0, "\(price.stderr)")
        #expect(price.stdout.hasPrefix("Set AAPL = 140"), "\(price.stdout)")

        // FIFO keeps 2 of lot 1 (200.20 USD, 180.18 EUR) and lot 2 (601.00 USD, 570.95 EUR):
        // 7 units cost 801.20 USD, 751.13 EUR; value 7 × 140 = 980.00 USD, round(980.00 × 0.92) =
        // 901.60 EUR; gain 150.47; currency effect round(801.20 × 0.92) − 751.13 = 737.10 − 751.13
        // = −14.03; price effect 164.50.
        let reply = try Self.decode(HoldingsReply.self, ledgerly("invest", "holdings", "--account", "FIFO", "--lots", "--json"))
        let holding = try #require(reply.holdings.first)
        #expect(reply.holdings.count == 1)
        #expect(holding.quantity == "7")
        #expect(holding.cost == "801.20")
        #expect(holding.costBase == "751.13")
        #expect(holding.price?.price == "140")
        #expect(holding.price?.stale == false)
        #expect(holding.value == "980.00")
        #expect(holding.valueBase == "901.60")
        #expect(holding.unrealised == UnrealisedGain(total: "150.47", priceEffect: "164.50", currencyEffect: "-14.03"))
        #expect(holding.lots?.map(\.quantity) == ["2", "5"])
        #expect(holding.lots?.map(\.costBase) == ["180.18", "570.95"])
        #expect(reply.totals.map(\.gain) == ["150.47"])

        let table = ledgerly("invest", "holdings", "--account", "FIFO", "--lots")
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("901.60 EUR"), "\(table.stdout)")
        #expect(table.stdout.contains("└ lot \(example.trades["fifo"]?.first ?? 0) 2026-01-02"), "\(table.stdout)")
        #expect(table.stdout.contains("Total EUR: cost 751.13, value 901.60, gain 150.47 (price effect 164.50, currency effect -14.03)"), "\(table.stdout)")
        // Not a terminal: no sparkline.
        #expect(!table.stdout.contains(where: { "▁▂▃▄▅▆▇█".contains($0) }), "\(table.stdout)")

        let history = try Self.decode(PriceListReply.self, ledgerly("invest", "prices", "history", "AAPL", "--json"))
        #expect(history.prices.map(\.price) == ["140"])
        #expect(try Self.decode(PriceListReply.self, ledgerly("invest", "prices", "list", "--json")).prices.map(\.symbol) == ["AAPL"])

        // Allocation: AAPL (group core) is the whole priced portfolio.
        let set = ledgerly("invest", "allocation", "set", "core", "70")
        #expect(set.status == 0, "\(set.stderr)")
        let allocation = try Self.decode(AllocationReply.self, ledgerly("invest", "allocation", "show", "--json"))
        let core = try #require(allocation.lines.first { $0.key == "core" })
        #expect(core.target == "70.00")
        #expect(core.actual == "100.00")
        #expect(core.drift == "30.00")
        #expect(core.drifting)
        let shown = ledgerly("invest", "allocation", "show")
        #expect(shown.stdout.contains("drifting"), "\(shown.stdout)")
        #expect(shown.stdout.contains("█"), "a bar per group: \(shown.stdout)")
        let removed = try Self.decode(AllocationReply.self, ledgerly("invest", "allocation", "remove", "core", "--json"))
        #expect(removed.lines.first { $0.key == "core" }?.target == nil)
    }

    @Test func aSplitDoublesTheQuantityAndKeepsTheCost() throws {
        let (_, ledgerly) = try CommandLineTests.setUpStore()
        #expect(ledgerly("invest", "account", "add", "Broker", "--base-currency", "EUR").status == 0)
        #expect(ledgerly("invest", "asset", "add", "MSFT", "--type", "stock", "--currency", "EUR", "--provider", "manual").status == 0)
        #expect(ledgerly("invest", "buy", "MSFT", "--account", "Broker", "--quantity", "3", "--price", "50", "--fee", "1.50", "--date", "2026-01-05").status == 0)
        let before = try Self.decode(HoldingsReply.self, ledgerly("invest", "holdings", "--json"))
        let split = ledgerly("invest", "split", "MSFT", "2:1", "--date", "2026-02-01")
        #expect(split.status == 0, "\(split.stderr)")
        #expect(split.stdout.hasPrefix("Split MSFT 2:1 from 2026-02-01"), "\(split.stdout)")
        let after = try Self.decode(HoldingsReply.self, ledgerly("invest", "holdings", "--json"))
        #expect(before.holdings.first?.quantity == "3")
        #expect(after.holdings.first?.quantity == "6")
        #expect(after.holdings.first?.cost == "151.50")
        #expect(after.holdings.first?.costBase == before.holdings.first?.costBase)

        let bad = ledgerly("invest", "split", "MSFT", "two-for-one")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("<ratio>"), "\(bad.stderr)")
    }

    @Test func aDividendRaisesTheWalletAndCountsAsIncome() throws {
        let (_, ledgerly) = try CommandLineTests.setUpStore()
        #expect(ledgerly("wallet", "add", "Dollars", "--currency", "USD").status == 0)
        #expect(ledgerly("category", "add", "Dividends", "--kind", "income").status == 0)
        #expect(ledgerly("invest", "account", "add", "Broker", "--base-currency", "EUR").status == 0)
        #expect(ledgerly("invest", "asset", "add", "KO", "--type", "stock", "--currency", "USD", "--provider", "manual").status == 0)
        let paid = ledgerly("invest", "dividend", "KO", "--account", "Broker", "--amount", "12.40", "--wallet", "Dollars", "--rate", "0.90",
                            "--category", "Dividends", "--date", "2026-03-15")
        #expect(paid.status == 0, "\(paid.stderr)")
        #expect(paid.stdout.hasPrefix("Dividend of 12.40 USD from KO on 2026-03-15 in Broker"), "\(paid.stdout)")
        #expect(paid.stdout.contains("= 11.16 EUR at 0.9; 12.40 USD into Dollars"), "\(paid.stdout)")
        let wallet = try Self.decode(WalletRecord.self, ledgerly("wallet", "show", "Dollars", "--json"))
        #expect(wallet.balance == "12.40")
        // Income in the account's base currency: round(12.40 × 0.90) = 11.16 EUR.
        let gains = try Self.decode(GainsReply.self, ledgerly("invest", "gains", "--json"))
        #expect(gains.sales.isEmpty)
        #expect(gains.totals.map(\.income) == ["11.16"])
        #expect(gains.totals.map(\.currency) == ["EUR"])
        let interest = ledgerly("invest", "dividend", "KO", "--account", "Broker", "--amount", "1", "--wallet", "Dollars", "--rate", "0.90", "--kind", "interest", "--json")
        #expect(try Self.decode(TradeRecord.self, interest).kind == .interest)
    }

    @Test func aBrokerFileImportsOnceAllOrNothing() throws {
        let (harness, ledgerly) = try CommandLineTests.setUpStore()
        #expect(ledgerly("wallet", "add", "Dollars", "--currency", "USD").status == 0)
        #expect(ledgerly("invest", "account", "add", "Broker", "--base-currency", "EUR").status == 0)
        #expect(ledgerly("invest", "asset", "add", "AAPL", "--type", "stock", "--currency", "USD", "--provider", "manual").status == 0)
        let file = harness.home.root.appendingPathComponent("trades.csv")
        try """
            Date;Type;Ticker;Qty;Price;Commission;Amount;FX
            02.01.2026;BUY;AAPL;10;100;1;;0.90
            02.02.2026;Buy;AAPL;5;120;1;;0.95

            02.03.2026;SELL;AAPL;8;130;1;;0.92
            15.03.2026;DIV;AAPL;;;;12.40;0.90

            """.write(to: file, atomically: true, encoding: .utf8)
        let map = "kind=Type,symbol=Ticker,date=Date,quantity=Qty,price=Price,fee=Commission,amount=Amount,rate=FX"
        func importing(_ path: String, _ extra: String...) -> ServiceHarness.CommandResult {
            ledgerly.run(["invest", "import", path, "--account", "Broker", "--wallet", "Dollars", "--map", map, "--kinds", "BUY=buy,SELL=sell,DIV=dividend",
                          "--date-format", "DD.MM.YYYY", "--home", harness.home.root.path] + extra)
        }

        let dry = try Self.decode(TradeImportReply.self, importing(file.path, "--dry-run", "--json"))
        #expect(dry.dryRun && dry.imported == 4 && dry.duplicates.isEmpty && dry.tradeIds.isEmpty)
        #expect(try Self.decode(TradeListReply.self, ledgerly("invest", "trades", "--json")).trades.isEmpty, "a dry run writes nothing")

        let noWallet = ledgerly.run(["invest", "import", file.path, "--account", "Broker", "--map", map, "--kinds", "BUY=buy,SELL=sell,DIV=dividend",
                                     "--date-format", "DD.MM.YYYY", "--dry-run", "--home", harness.home.root.path])
        #expect(noWallet.status == 1)
        #expect(noWallet.stderr.hasPrefix("error: \(file.path) line 6: "), "\(noWallet.stderr)")
        #expect(noWallet.stderr.contains("--wallet"), "\(noWallet.stderr)")

        let first = importing(file.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Imported 4 of 4 trades from \(file.path) into 'Broker'."), "\(first.stdout)")
        let trades = try Self.decode(TradeListReply.self, ledgerly("invest", "trades", "--json")).trades
        #expect(trades.map(\.kind) == [.buy, .buy, .sell, .dividend])
        #expect(trades.map(\.date) == ["2026-01-02", "2026-02-02", "2026-03-02", "2026-03-15"])
        // The imported sale is the worked example's FIFO sale.
        Self.expectRealised(trades[2].realised, cost: "800.80", costBase: "720.72", gain: "235.16", priceEffect: "219.14", currencyEffect: "16.02")

        let second = try Self.decode(TradeImportReply.self, importing(file.path, "--json"))
        #expect(second.imported == 0)
        #expect(second.duplicates == [2, 3, 5, 6], "the file's own line numbers")
        let secondText = importing(file.path)
        #expect(secondText.stdout.contains("4 duplicate(s) skipped (already recorded): lines 2, 3, 5, 6"), "\(secondText.stdout)")

        let bad = harness.home.root.appendingPathComponent("bad.csv")
        try """
            Date;Type;Ticker;Qty;Price;Commission;Amount;FX
            10.04.2026;BUY;AAPL;1;100;1;;0.90
            11.04.2026;BUY;AAPL;1;-3;1;;0.90
            """.write(to: bad, atomically: true, encoding: .utf8)
        let refused = importing(bad.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(bad.path) line 3, column Price"), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was imported"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("body."), "\(refused.stderr)")
        #expect(try Self.decode(TradeListReply.self, ledgerly("invest", "trades", "--json")).trades.count == 4, "all or nothing")

        let unknownKind = harness.home.root.appendingPathComponent("kinds.csv")
        try "Date;Type;Ticker\n10.04.2026;SWAP;AAPL\n".write(to: unknownKind, atomically: true, encoding: .utf8)
        let kind = ledgerly.run(["invest", "import", unknownKind.path, "--account", "Broker", "--map", "kind=Type,symbol=Ticker,date=Date",
                                 "--date-format", "DD.MM.YYYY", "--home", harness.home.root.path])
        #expect(kind.status == 1)
        #expect(kind.stderr.contains("line 2: kind 'SWAP'"), "\(kind.stderr)")
        let column = ledgerly.run(["invest", "import", file.path, "--account", "Broker", "--map", "kind=Kind,symbol=Ticker,date=Date", "--home", harness.home.root.path])
        #expect(column.status == 1)
        #expect(column.stderr.contains("--map: no column 'Kind'"), "\(column.stderr)")
    }

    @Test func aTransferAMethodChangeTheWatchlistAndTheSettingsGoThroughTheCLI() throws {
        let example = try Self.workedExample()
        let ledgerly = example.ledgerly
        // FIFO holds 7 (2 of lot 1, lot 2); moving 2 takes what is left of lot 1 with its cost.
        #expect(ledgerly("invest", "account", "add", "Pension", "--base-currency", "EUR", "--type", "retirement").status == 0)
        let moved = ledgerly("invest", "transfer", "AAPL", "--from", "FIFO", "--to", "Pension", "--quantity", "2", "--date", "2026-04-01")
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout.hasPrefix("Moved 2 AAPL from FIFO to Pension on 2026-04-01"), "\(moved.stdout)")
        let pension = try Self.decode(HoldingsReply.self, ledgerly("invest", "holdings", "--account", "Pension", "--json"))
        #expect(pension.holdings.map(\.quantity) == ["2"])
        #expect(pension.holdings.map(\.costBase) == ["180.18"])

        // A new method replays the account: the LIFO account's sale becomes the FIFO figures.
        let edited = ledgerly("invest", "account", "edit", "LIFO", "--method", "fifo")
        #expect(edited.status == 0, "\(edited.stderr)")
        let gains = try Self.decode(GainsReply.self, ledgerly("invest", "gains", "--account", "LIFO", "--json"))
        Self.expectRealised(gains.sales.first?.realised, cost: "800.80", costBase: "720.72", gain: "235.16", priceEffect: "219.14", currencyEffect: "16.02")

        #expect(ledgerly("invest", "watch", "add", "aapl").status == 0)
        #expect(try Self.decode(AssetListReply.self, ledgerly("invest", "watch", "list", "--json")).assets.map(\.symbol) == ["AAPL"])
        #expect(ledgerly("invest", "watch", "remove", "AAPL").status == 0)
        #expect(try Self.decode(AssetListReply.self, ledgerly("invest", "watch", "list", "--json")).assets.isEmpty)

        let settings = ledgerly("settings", "set", "--stale-equity-minutes", "30", "--drift-points", "4")
        #expect(settings.status == 0, "\(settings.stderr)")
        #expect(settings.stdout.contains("30 minutes (other assets)"), "\(settings.stdout)")
        #expect(settings.stdout.contains("Allocation drift:  4 percentage points"), "\(settings.stdout)")
        let json = try Self.decode(SettingsRecord.self, ledgerly("settings", "--json"))
        #expect(json.staleEquityMinutes == 30 && json.allocationDriftPoints == 4)
    }

    @Test func badInputIsRefusedNamingTheOption() throws {
        let (_, ledgerly) = try CommandLineTests.setUpStore()
        #expect(ledgerly("invest", "account", "add", "Broker", "--base-currency", "EUR").status == 0)
        #expect(ledgerly("invest", "asset", "add", "AAPL", "--type", "stock", "--currency", "USD", "--provider", "manual").status == 0)

        let symbol = ledgerly("invest", "buy", "NOPE", "--account", "Broker", "--quantity", "1", "--price", "1", "--rate", "0.9")
        #expect(symbol.status == 1)
        #expect(symbol.stderr.hasPrefix("error: <symbol>: no asset 'NOPE'"), "\(symbol.stderr)")

        let negative = ledgerly("invest", "buy", "AAPL", "--account", "Broker", "--quantity", "-5", "--price", "100", "--rate", "0.9")
        #expect(negative.status == 1)
        #expect(negative.stderr.hasPrefix("error: "), "\(negative.stderr)")
        #expect(negative.stderr.contains("--quantity"), "\(negative.stderr)")
        #expect(!negative.stderr.contains("body."), "a protocol path leaked: \(negative.stderr)")

        let account = ledgerly("invest", "sell", "AAPL", "--account", "Nowhere", "--quantity", "1", "--price", "1")
        #expect(account.status == 1)
        #expect(account.stderr.hasPrefix("error: --account: no investment account 'Nowhere' (accounts: Broker)"), "\(account.stderr)")

        let lot = ledgerly("invest", "sell", "AAPL", "--account", "Broker", "--quantity", "1", "--price", "1", "--lot", "one")
        #expect(lot.status == 64)
        #expect(lot.stderr.contains("--lot"), "\(lot.stderr)")

        let price = ledgerly("invest", "prices", "set", "AAPL", "-1")
        #expect(price.status == 1)
        #expect(price.stderr.contains("<price>"), "\(price.stderr)")

        let help = ledgerly("invest", "buy", "--help", home: false)
        #expect(help.status == 0)
        #expect(help.stdout.contains("--quantity"))
    }
}
