import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// `ledgerly export json` carries the investments and `ledgerly import json` restores them
    /// under their ids, with the same lots, gains, cash and prices (issue 14).
    @Suite struct InvestmentExportTests {
        @Test func investmentsSurviveAnExportAndRestore() throws {
            let original = try ServiceHarness()
            try original.start(.store)
            try original.setUp()
            let client = original.client()
            let dollars = try client.call(WalletCreateRequest(name: "Dollars", currency: "USD", startingBalance: "5000"))
            let euros = try client.call(WalletCreateRequest(name: "Euros", currency: "EUR", startingBalance: "100"))
            let account = try client.call(InvestAccountCreateRequest(name: "Broker", costBasisMethod: .lifo))
            let asset = try client.call(AssetCreateRequest(symbol: "ACME", assetType: .stock, quoteCurrency: "USD", allocationGroup: "core"))
            _ = try client.call(TradeBuyRequest(accountId: account.id, assetId: asset.id, quantity: "10", price: "100", fee: "1", date: "2026-01-10", rate: "0.90", walletId: dollars.id))
            _ = try client.call(TradeBuyRequest(accountId: account.id, assetId: asset.id, quantity: "5", price: "120", fee: "1", date: "2026-02-10", rate: "0.95"))
            _ = try client.call(TradeSellRequest(accountId: account.id, assetId: asset.id, quantity: "8", price: "130", fee: "1", date: "2026-03-10", rate: "0.92", walletId: dollars.id))
            _ = try client.call(TradeSplitRequest(assetId: asset.id, ratio: "2:1", date: "2026-04-01"))
            _ = try client.call(TradeIncomeRequest(kind: .dividend, accountId: account.id, assetId: asset.id, amount: "7.50", date: "2026-05-01", walletId: euros.id))
            _ = try client.call(PriceSetRequest(assetId: asset.id, price: "70", asOf: "2026-11-01T10:00:00Z"))
            _ = try client.call(AllocationSetRequest(dimension: .group, key: "core", percent: "100"))
            let file = original.home.root.appendingPathComponent("export.json")
            let exported = try original.cli("export", "json", "-o", file.path)
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(exported.stdout.contains("5 investment trades"), "\(exported.stdout)")

            // The journal: hledger reads the units and their cost, and the wallets' cash once.
            let journal = original.home.root.appendingPathComponent("ledger.journal")
            let written = try original.cli("export", "journal", "-o", journal.path)
            #expect(written.status == 0, "\(written.stderr)")
            #expect(try PeerTool.journalFailures(journal.path) == [])
            let beancount = original.home.root.appendingPathComponent("ledger.beancount")
            let beanWritten = try original.cli("export", "beancount", "-o", beancount.path)
            #expect(beanWritten.status == 0, "\(beanWritten.stderr)")
            #expect(try PeerTool.beancountFailure(beancount.path) == nil)
            let units = try Self.hledger(["-f", journal.path, "--strict", "bal", "-N", "--flat", "assets:investments", "assets:Dollars"])
            #expect(units.contains("14 ACME"), "\(units)")  // (2 + 5) × 2 after the split
            #expect(units.contains("5038.00 USD"), "\(units)")
            let cost = try Self.hledger(["-f", journal.path, "bal", "-N", "-B", "--flat", "assets:investments"])
            #expect(cost.contains("700.70 USD"), "\(cost)")  // LIFO left 7 units of the first lot: 1001.00 − 300.30
            let gains = try Self.hledger(["-f", journal.path, "bal", "-N", "--flat", "income:investments"])
            #expect(gains.contains("-137.70 USD"), "\(gains)")  // LIFO: 1039.00 − 901.30

            let copy = try ServiceHarness()
            try copy.start(.store)
            try copy.setUp()
            let restored = try copy.cli("import", "json", file.path)
            #expect(restored.status == 0, "\(restored.stderr)")
            let other = copy.client()
            #expect(try other.call(TradeListRequest()) == (try client.call(TradeListRequest())))
            #expect(try other.call(GainsRequest()) == (try client.call(GainsRequest())))
            #expect(try other.call(HoldingsRequest(includeLots: true)).holdings.map(\.lots) == (try client.call(HoldingsRequest(includeLots: true)).holdings.map(\.lots)))
            #expect(try other.call(PriceHistoryRequest(assetId: asset.id, since: "1970-01-01")).prices.map(\.price) == ["70"])
            #expect(try other.call(AllocationShowRequest()).lines.map(\.target) == ["100.00"])
            #expect(try other.call(WalletGetRequest(id: dollars.id)).balance == "5038.00")  // 5000 − 1001.00 paid + 1039.00 received
            // The cash is still the trades': buying and selling is neither income nor spending.
            #expect(try other.call(CashFlowReportRequest(from: "2026-01", to: "2026-05")) == (try client.call(CashFlowReportRequest(from: "2026-01", to: "2026-05"))))
            let cash = try #require(try other.call(TradeListRequest()).trades.first?.cash)
            #expect(throws: (any Error).self, "a trade's cash is not deleted alone") { try other.call(TransactionDeleteRequest(id: cash.transactionId)) }
        }

        /// hledger's output; fails the test when hledger refuses the file.
        static func hledger(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/hledger")
            process.arguments = arguments
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "hledger \(arguments.joined(separator: " ")): \(failure)")
            return text
        }
    }
}
