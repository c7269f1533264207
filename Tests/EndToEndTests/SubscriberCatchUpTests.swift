import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Testing

extension EndToEndTests {
    /// Architecture rule 3 (Clone pattern): a subscriber that was down catches up from its saved
    /// cursor, with no gap and no duplicate.
    @Suite struct SubscriberCatchUpTests {
        /// The seqs the alerts service logged as handled, in order.
        static func handledSeqs(_ log: String) -> [Int64] {
            log.split(separator: "\n").filter { $0.contains("handled event") }.compactMap { line in
                guard let range = line.range(of: "seq=") else { return nil }
                return Int64(line[range.upperBound...].prefix { $0.isNumber })
            }
        }

        @Test(arguments: [SIGTERM, SIGKILL])
        func alertsCatchesUpAfterMissingOneHundredChanges(signal: Int32) throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.start(.alerts)
            try harness.setUp()
            let client = harness.client()
            let wallet = try client.call(WalletCreateRequest(name: "Main", currency: "EUR"))
            try harness.waitFor("alerts to handle the first changes") { harness.status(.alerts)?.lastSeq == 2 }

            harness.stop(.alerts, signal: signal)
            for index in 0..<100 {
                _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "2.00", notes: "while-down-\(index)", date: "2026-11-21"))
            }
            let storeSeq = try #require(harness.status(.store)).lastSeq
            #expect(storeSeq == 102)

            try harness.start(.alerts)
            try harness.waitFor("alerts to catch up") { harness.status(.alerts)?.lastSeq == storeSeq }
            let seqs = Self.handledSeqs(harness.log(.alerts))
            #expect(seqs == Array(1...storeSeq))
            #expect(harness.log(.alerts).contains("to=\(storeSeq)"))

            // Live events after the catch-up continue the same sequence.
            _ = try client.call(TransactionCreateRequest(kind: .income, walletId: wallet.id, amount: "1.00", date: "2026-11-21"))
            try harness.waitFor("alerts to handle a live event") { harness.status(.alerts)?.lastSeq == storeSeq + 1 }
            #expect(Self.handledSeqs(harness.log(.alerts)) == Array(1...(storeSeq + 1)))
        }

        @Test func subscribersSurviveAStoreRestart() throws {
            let harness = try ServiceHarness()
            try harness.startAll()
            try harness.setUp()
            let client = harness.client()
            let wallet = try client.call(WalletCreateRequest(name: "Main", currency: "EUR"))
            harness.stop(.store, signal: SIGKILL)
            try harness.start(.store)
            for _ in 0..<5 {
                _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1.00", date: "2026-11-21"))
            }
            let storeSeq = try #require(harness.status(.store)).lastSeq
            try harness.waitFor("rates and alerts to reach seq \(storeSeq)") {
                harness.status(.rates)?.lastSeq == storeSeq && harness.status(.alerts)?.lastSeq == storeSeq
            }
            #expect(Self.handledSeqs(harness.log(.alerts)) == Array(1...storeSeq))
            #expect(Self.handledSeqs(harness.log(.rates)) == Array(1...storeSeq))
            let status = try harness.cli("status", "--json")
            #expect(status.status == 0)
        }
    }
}
