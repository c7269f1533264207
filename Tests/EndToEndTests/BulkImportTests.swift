import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// `ledgerly import json` on a ledger large enough to take many batches (the synthetic history
    /// the benchmark loads, at 20,000 transactions): read as a stream, checked whole before
    /// anything is written, sent in pipelined batches. Checks what is restored, never how fast.
    @Suite struct BulkImportTests {
        /// A store with the synthetic history loaded, exported as JSON.
        static func exported(transactions: Int) throws -> (harness: ServiceHarness, file: URL) {
            let harness = try ServiceHarness()
            try harness.start(.store)
            let client = harness.client(timeoutMilliseconds: 60_000, attempts: 1)
            defer { client.close() }
            let load = try SyntheticLedgerLoad(home: harness.home, context: harness.context, transactions: transactions, batch: 2_000, senders: 1).run(client: client)
            guard load.loaded == transactions, load.failedBatches == 0 else { throw HarnessError.commandFailed("load", "loaded \(load.loaded) of \(transactions)") }
            let file = harness.home.root.appendingPathComponent("export.json")
            let export = try harness.cli("export", "json", "-o", file.path)
            guard export.status == 0 else { throw HarnessError.commandFailed("export json", export.stderr) }
            return (harness, file)
        }

        /// The text of the transactions array: everything from its opening bracket on.
        static func transactionsSection(_ file: URL) throws -> Data {
            let data = try Data(contentsOf: file)
            let marker = Data("\"transactions\":[".utf8)
            guard let range = data.range(of: marker) else { return Data() }
            return data[range.lowerBound...]
        }

        static func transactionCount(_ harness: ServiceHarness) throws -> Int {
            let reply = try ReportsImportExportTests.decode(TransactionListReply.self, try harness.cli("tx", "list", "--limit", "1", "--json"))
            return reply.total
        }

        @Test func twentyThousandTransactionsRoundTripByteForByte() throws {
            let (original, file) = try Self.exported(transactions: 20_000)
            let copy = try ServiceHarness()
            try copy.start(.store)
            try copy.setUp()
            let restored = try copy.cli("import", "json", file.path, "--batch-size", "1500")
            #expect(restored.status == 0, "\(restored.stderr)")
            #expect(restored.stdout.contains("Restored from"), "\(restored.stdout)")
            let again = copy.home.root.appendingPathComponent("again.json")
            #expect(try copy.cli("export", "json", "-o", again.path).status == 0)
            let before = try Self.transactionsSection(file)
            let after = try Self.transactionsSection(again)
            #expect(before.count > 1_000_000)
            #expect(before == after)
            // The kept totals the reports read come back the same.
            for report in [["report", "categories", "--json"], ["report", "cashflow", "--json"]] {
                #expect(try copy.cli(report).stdout == original.cli(report).stdout, "\(report.joined(separator: " "))")
            }
        }

        @Test func aBadRecordDeepInTheFileIsRefusedByPositionAndNothingIsWritten() throws {
            // The original harness owns the export's folder: kept alive to the end.
            let (original, file) = try Self.exported(transactions: 6_000)
            defer { withExtendedLifetime(original) {} }
            // Transaction 5,000's amount made unreadable; lines are one record each after the header line.
            var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            let index = 2 + 4_999
            let record = lines[index]
            let broken = record.replacingOccurrences(of: #"{"amount":""#, with: #"{"amount":12,"was":""#)
            #expect(broken != record)
            lines[index] = broken
            let bad = file.deletingLastPathComponent().appendingPathComponent("bad.json")
            try lines.joined(separator: "\n").write(to: bad, atomically: true, encoding: .utf8)

            let copy = try ServiceHarness()
            try copy.start(.store)
            try copy.setUp()
            let refused = try copy.cli("import", "json", bad.path)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("transaction 5000 (line \(index + 1))"), "\(refused.stderr)")
            #expect(refused.stderr.contains("amount"), "\(refused.stderr)")
            #expect(refused.stderr.contains("nothing was restored"), "\(refused.stderr)")
            // Nothing was written: no wallets, no transactions, and the same file, fixed, restores.
            let wallets = try ReportsImportExportTests.decode(WalletListReply.self, try copy.cli("wallet", "list", "--all", "--json"))
            #expect(wallets.wallets.isEmpty)
            #expect(try Self.transactionCount(copy) == 0)

            // A file cut short in the middle of the transactions is refused the same way.
            let text = try Data(contentsOf: file)
            let cut = file.deletingLastPathComponent().appendingPathComponent("cut.json")
            try text.prefix(text.count * 2 / 3).write(to: cut)
            let short = try copy.cli("import", "json", cut.path)
            #expect(short.status == 1 && short.stderr.contains("cut short"), "\(short.stderr)")
            #expect(try Self.transactionCount(copy) == 0)

            let restored = try copy.cli("import", "json", file.path)
            #expect(restored.status == 0, "\(restored.stderr)")
            #expect(try Self.transactionCount(copy) > 6_000)  // transfers are two transactions
        }
    }
}
