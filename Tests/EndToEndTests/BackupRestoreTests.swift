import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Synchronization
import Testing

extension EndToEndTests {
    /// `ledgerly backup` while writes stream in, and `ledgerly restore` (issue 12, "Backups and
    /// migrations").
    @Suite struct BackupRestoreTests {
        @Test func aBackupDuringWritesHoldsEveryAcknowledgedWriteAndRestores() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client()
            let wallet = try client.call(WalletCreateRequest(name: "Stream", currency: "EUR"))

            // A writer records transactions without pause; the ids it had acknowledged when the
            // backup's reply came must all be in the copy.
            let stream = WriteStream()
            let writer = Thread { [context = harness.context, endpoint = harness.home.storeCommandEndpoint] in
                let own = RequestClient(service: "ledgerly-store", endpoint: endpoint, context: context)
                defer { own.close() }
                var index = 0
                while !stream.stopped {
                    guard let reply = try? own.call(TransactionCreateRequest(kind: .income, walletId: wallet.id, amount: "1.00", notes: "stream-\(index)", date: "2026-11-21")) else { continue }
                    stream.acknowledge(reply.id)
                    index += 1
                }
            }
            writer.start()
            try harness.waitFor("the writer to get going") { stream.acknowledged.count >= 50 }
            let file = harness.home.root.appendingPathComponent("during.sqlite")
            // Acknowledged before the request was sent, so before its reply.
            let before = Set(stream.acknowledged)
            let backup = try harness.cli("backup", file.path, "--json")
            stream.stop()
            while !writer.isFinished { usleep(10_000) }
            #expect(backup.status == 0, "\(backup.stderr)")
            #expect(backup.stdout.contains("\"integrity\" : \"ok\""))
            #expect(try harness.cli("backup", file.path).status == 1, "a backup never overwrites a file")

            // Restoring it is refused while the store runs, then replaces the database.
            let refused = try harness.cli("restore", file.path)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("stop it first"))
            let epochBefore = try #require(harness.status(.store)).epoch
            harness.stop(.store)
            let restored = try harness.cli("restore", file.path)
            #expect(restored.status == 0, "\(restored.stderr)")
            #expect(restored.stdout.contains("kept at"))
            let kept = try FileManager.default.contentsOfDirectory(atPath: harness.home.root.appendingPathComponent("backups").path)
            #expect(kept.contains { $0.hasPrefix("ledgerly-replaced-") })
            try harness.start(.store)
            #expect(try #require(harness.status(.store)).epoch != epochBefore, "a restored database has a new epoch")
            let ids = Set(try client.call(TransactionListRequest(walletId: wallet.id, limit: 10_000)).transactions.map(\.id))
            #expect(before.isSubset(of: ids), "every write acknowledged before the backup's reply is in the copy")
            #expect(try client.call(WalletGetRequest(id: wallet.id)).balance == "\(ids.count).00")

            // A file that is not a Ledgerly database is refused and changes nothing.
            harness.stop(.store)
            let junk = harness.home.root.appendingPathComponent("junk.sqlite")
            try Data("not a database".utf8).write(to: junk)
            let bad = try harness.cli("restore", junk.path)
            #expect(bad.status == 1)
            #expect(bad.stderr.contains("restore failed"))
            try harness.start(.store)
            #expect(try client.call(TransactionListRequest(walletId: wallet.id, limit: 10_000)).total == ids.count)
        }
    }
}

/// What the writer thread of a backup test shares with the test.
final class WriteStream: Sendable {
    private let state = Mutex((ids: [Int64](), stopped: false))
    var acknowledged: [Int64] { state.withLock { $0.ids } }
    var stopped: Bool { state.withLock { $0.stopped } }
    func acknowledge(_ id: Int64) { state.withLock { $0.ids.append(id) } }
    func stop() { state.withLock { $0.stopped = true } }
}
