import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// The exports read `tx.export` pages without Foundation's coders and a page ahead (D260–D262):
    /// what they write must be what reading and writing every record with Foundation gives.
    @Suite struct ExportExactnessTests {
        /// The reports fixture, plus what it lacks: tags, text that needs escaping, a transaction
        /// still waiting for a rate, an investment trade's cash and a liability's payments.
        static func ledger(_ harness: ServiceHarness) throws -> RequestClient {
            try ReportsImportExportTests.sampleLedger(harness)
            let client = harness.client()
            let wallets = try client.call(WalletListRequest(includeArchived: true)).wallets
            let checking = try #require(wallets.first { $0.name == "Checking" })
            let dollars = try #require(wallets.first { $0.name == "Dollars" })
            _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: checking.id, amount: "7.20",
                                                         notes: "Café \"Zur Post\"\t1/2 \\ line\nnext ☕️ \u{1}", date: "2026-11-05",
                                                         tags: ["b/slash", "ünï", "weekly"], attachmentPath: "/tmp/receipt 1.pdf"))
            let pounds = try client.call(WalletCreateRequest(name: "Pounds", currency: "GBP"))
            _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: pounds.id, amount: "12.00", notes: "No EUR/GBP rate yet", date: "2026-11-06"))
            let account = try client.call(InvestAccountCreateRequest(name: "Broker"))
            let asset = try client.call(AssetCreateRequest(symbol: "ACME", assetType: .stock, quoteCurrency: "USD"))
            _ = try client.call(TradeBuyRequest(accountId: account.id, assetId: asset.id, quantity: "2", price: "10", fee: "1", date: "2026-11-07", rate: "0.90", walletId: dollars.id))
            let loan = try client.call(LiabilityCreateRequest(name: "Car loan", balance: "5000", currency: "USD", balanceOn: "2026-01-05"))
            _ = try client.call(LiabilityPayRequest(id: loan.id, walletId: checking.id, amount: "500", walletAmount: "460.00", date: "2026-02-15"))
            return client
        }

        /// Every record as the store's `tx.get` gives it (Foundation's encoder in the store, its
        /// decoder here), written as the JSON export wrote each record before D260.
        static func recordByRecord(_ client: RequestClient) throws -> (text: String, records: [TransactionRecord]) {
            var ids: [Int64] = []
            var after: Int64?
            repeat {
                let page = try client.call(TransactionExportRequest(afterId: after, limit: 4))
                ids += page.transactions.map(\.id)
                after = page.nextAfterId
            } while after != nil
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let records = try ids.map { try client.call(TransactionGetRequest(id: $0)) }
            let text = try records.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.joined(separator: ",\n")
            return (text, records)
        }

        @Test func theJSONExportIsWhatFoundationWritesRecordByRecord() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            let client = try Self.ledger(harness)
            let (expected, records) = try Self.recordByRecord(client)
            #expect(records.count >= 15)
            #expect(records.contains { $0.baseAmount == nil } && records.contains { !$0.splits.isEmpty } && records.contains { $0.transfer != nil }
                    && records.contains { $0.conversion != nil } && records.contains { $0.baseConversion != nil } && records.contains { !$0.tags.isEmpty })
            // One page, and pages of 3 (the next asked for while this one is written).
            for pageSize in ["10000", "3"] {
                let file = harness.home.root.appendingPathComponent("export-\(pageSize).json")
                let result = try harness.cli("export", "json", "-o", file.path, "--page-size", pageSize)
                #expect(result.status == 0, "\(result.stderr)")
                let text = try String(contentsOf: file, encoding: .utf8)
                let opening = try #require(text.range(of: ",\n\"transactions\":[\n"))
                #expect(text.hasPrefix("{\"ledgerly\":") && text.hasSuffix("\n]}\n"))
                #expect(String(text[opening.upperBound...].dropLast("\n]}\n".count)) == expected, "page size \(pageSize)")
            }
        }

        @Test func theJournalAndCSVAreTheSameWhateverThePageSize() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            _ = try Self.ledger(harness)
            for format in ["journal", "csv"] {
                var outputs: [String] = []
                for pageSize in ["10000", "3", "1"] {
                    let result = try harness.cli("export", format, "--page-size", pageSize)
                    #expect(result.status == 0, "\(result.stderr)")
                    outputs.append(result.stdout)
                }
                #expect(outputs[0].count > 1_000)
                #expect(outputs[1] == outputs[0] && outputs[2] == outputs[0], "\(format)")
            }
        }

        @Test func aRefusedPageIsReportedAsBefore() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let result = try harness.cli("export", "csv", "--page-size", "10001")
            #expect(result.status != 0)
            #expect(result.stderr.contains("must be 1 to 10000, got 10001"), "\(result.stderr)")
        }
    }
}
