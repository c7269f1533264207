import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlySync
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// The gap holes numbering alone left open (issue 44, D520–D522), with the real binaries on
    /// a real PostgreSQL hub (as `SyncTests`): the hub drops a device's *last* rows, which only
    /// its heartbeat reveals; it replays a re-send request, which must send nothing again; and a
    /// number its sender no longer holds is reported lost for good, not asked for forever.
    @Suite struct SyncGapHubTests {
        typealias Device = SyncTests.Device

        /// A sealed message of the 256-byte bucket (285 bytes on the hub): a heartbeat (about 250
        /// bytes of JSON), never a transaction (about 1.4 KB, the 2,048 bucket) or a re-send
        /// request (about 300, the 512 bucket).
        static let smallRow = 300

        static func ids(_ device: Device) throws -> (ledger: String, device: String) {
            let credentials = try #require(try SyncCredentials.load(home: device.harness.home.root))
            return (credentials.ledgerId.uuidString.lowercased(), credentials.deviceId.uuidString.lowercased())
        }

        static func lines(_ hub: TemporaryPostgres, _ sql: String) throws -> [String] {
            try hub.psql(sql, database: hub.database).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        static func newestPosition(_ hub: TemporaryPostgres) throws -> Int64 {
            Int64(try lines(hub, "SELECT coalesce(max(seq), 0) FROM ledgerly_messages").first ?? "") ?? -1
        }

        /// `device`'s hub rows after `position` that are not of the small bucket: its changes.
        static func changeRows(_ hub: TemporaryPostgres, device: String, after position: Int64) throws -> [String] {
            try lines(hub, "SELECT seq FROM ledgerly_messages WHERE device_id = '\(device)' AND seq > \(position) AND octet_length(sealed) > \(smallRow) ORDER BY seq")
        }

        static func rowCount(_ hub: TemporaryPostgres, device: String) throws -> Int {
            Int(try lines(hub, "SELECT count(*) FROM ledgerly_messages WHERE device_id = '\(device)'").first ?? "") ?? -1
        }

        static func notes(_ device: Device) throws -> Set<String> {
            Set(try device.harness.client().call(TransactionListRequest(limit: 1_000)).transactions.compactMap(\.notes))
        }

        /// Item 1 (D520): A writes three changes; the hub deletes the last two before B pulls.
        /// No later number of A's comes, but A's heartbeat does: B reports the gap, naming A and
        /// the numbers, in `sync status` and `--json`; once A is back it sends them again and the
        /// exports agree. Item 3 (D522): then the hub replays B's re-send request (the same
        /// sealed rows under new positions): A sends nothing again.
        @Test func theHubDroppingADevicesLastRowsIsReportedAndAReplayedRequestSendsNothingAgain() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            _ = try a.harness.client().call(WalletCreateRequest(name: "Cash", currency: "EUR", startingBalance: "100"))
            let b = try a.enableAndJoin(hub)
            let deviceA = try Self.ids(a).device, deviceB = try Self.ids(b).device

            b.harness.stop(.sync)
            let before = try Self.newestPosition(hub)
            for note in ["A one", "A two", "A three"] {
                let added = try a.cli("tx", "add", "--wallet", "Cash", "--amount", "1.00", "--notes", note, "--date", "2026-11-02")
                #expect(added.status == 0, "\(added.stderr)")
            }
            // Settled means the heartbeat is out too (it counts as waiting to go out until then).
            try a.waitUntilSynced()
            a.harness.stop(.sync)
            let changes = try Self.changeRows(hub, device: deviceA, after: before)
            #expect(changes.count == 3, "\(changes)")
            let heartbeats = try Self.lines(hub, "SELECT seq FROM ledgerly_messages WHERE device_id = '\(deviceA)' AND seq > \(changes.last ?? "0") AND octet_length(sealed) <= \(Self.smallRow)")
            #expect(heartbeats.count == 1, "one heartbeat after the three changes: \(heartbeats)")
            _ = try hub.psql("DELETE FROM ledgerly_messages WHERE seq IN (\(changes.suffix(2).joined(separator: ", ")))", database: hub.database)

            try b.harness.start(.sync, extraArguments: ["--round-interval", "1"])
            var shown = ""
            try b.harness.waitFor("B to report A's last two messages missing") {
                _ = try? b.cli("sync", "now")
                shown = try b.cli("sync", "status", "--json").stdout
                return try JSONDecoder().decode(SyncStatusReply.self, from: Data(shown.utf8)).gaps?.contains { $0.device == deviceA } == true
            }
            let status = try JSONDecoder().decode(SyncStatusReply.self, from: Data(shown.utf8))
            let missing = try #require(status.gaps?.first { $0.device == deviceA }?.missing)
            let numbers = missing.split(separator: "-").compactMap { Int64($0) }
            #expect(numbers.count == 2 && numbers[1] == numbers[0] + 1, "the last two numbers: \(missing)")
            #expect(status.state == "syncing", "\(shown)")
            let text = try b.cli("sync", "status").stdout
            #expect(text.contains("Gap: device \(deviceA) sent messages \(missing) that have not arrived here"), "\(text)")
            let early = try Self.notes(b)
            #expect(early.contains("A one") && !early.contains("A two") && !early.contains("A three"), "\(early)")

            // A is back: it sends them again, and the two ledgers agree.
            try a.harness.start(.sync, extraArguments: ["--round-interval", "1"])
            try Device.meet([a, b, a, b])
            #expect(try b.status().gaps == nil)
            #expect(try Self.notes(b) == Self.notes(a))
            #expect(try a.export() == b.export())

            // The hub replays B's rows since the drop (B wrote nothing: they are its re-send
            // request and its heartbeat) under new positions; A pulls them and sends nothing again.
            let sentByA = try Self.rowCount(hub, device: deviceA)
            let ledger = try Self.ids(a).ledger
            let requests = try Self.lines(hub, """
                SELECT seq || '|' || hlc || '|' || encode(sealed, 'hex') FROM ledgerly_messages
                WHERE device_id = '\(deviceB)' AND seq > \(before) ORDER BY seq
                """).map { $0.split(separator: "|").map(String.init) }
            #expect(requests.count >= 2 && requests.allSatisfy { $0.count == 3 }, "the request and the heartbeat: \(requests)")
            _ = try hub.psql("DELETE FROM ledgerly_messages WHERE seq IN (\(requests.map { $0[0] }.joined(separator: ", ")))", database: hub.database)
            let values = requests.map { "('\(ledger)', '\(deviceB)', '\($0[1])', '\\x\($0[2])')" }.joined(separator: ", ")
            let replayed = try Self.lines(hub, "INSERT INTO ledgerly_messages (ledger_id, device_id, hlc, sealed) VALUES \(values) RETURNING seq")
            #expect(replayed.count == requests.count, "\(replayed)")
            let through = Int64(replayed.last ?? "") ?? 0
            try a.harness.waitFor("A to pull the replayed rows") {
                _ = try? a.cli("sync", "now")
                return try a.status().pulledSeq >= through
            }
            // A round more (a re-send would be pushed at its start), then settled.
            try a.waitUntilSynced()
            _ = try a.cli("sync", "now")
            #expect(try Self.rowCount(hub, device: deviceA) == sentByA, "A sent its messages again for a replayed request")
        }

        /// Item 2 (D521): the hub drops one of A's messages and A no longer holds it (as past its
        /// window of 20,000). B asks; A answers that it is gone; B reports it as lost for good
        /// (`Sync: lost`, "Lost: device … sent messages N …", and `lostGaps` in `--json`), not as
        /// a gap, and says what it means.
        @Test func aMessageItsSenderNoLongerHoldsIsReportedLostForGood() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            _ = try a.harness.client().call(WalletCreateRequest(name: "Cash", currency: "EUR", startingBalance: "100"))
            let b = try a.enableAndJoin(hub)
            let deviceA = try Self.ids(a).device

            b.harness.stop(.sync)
            let before = try Self.newestPosition(hub)
            for note in ["A one", "A two, gone", "A three"] {
                #expect(try a.cli("tx", "add", "--wallet", "Cash", "--amount", "1.00", "--notes", note, "--date", "2026-11-02").status == 0)
            }
            try a.waitUntilSynced()
            a.harness.stop(.sync)
            a.harness.stop(.store)
            let changes = try Self.changeRows(hub, device: deviceA, after: before)
            #expect(changes.count == 3, "\(changes)")
            _ = try hub.psql("DELETE FROM ledgerly_messages WHERE seq = \(changes[1])", database: hub.database)
            // A's copy of it goes too, as a message past A's window would have.
            let queue = try DatabaseQueue(path: a.harness.home.databaseURL.path)
            let gone = try queue.write { db -> Int64 in
                let last = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM sync_sent") ?? 0
                try db.execute(sql: "DELETE FROM sync_sent WHERE seq = ?", arguments: [last - 1])
                return last - 1
            }
            try queue.close()
            try a.harness.start(.store)
            try a.harness.start(.sync, extraArguments: ["--round-interval", "1"])
            try b.harness.start(.sync, extraArguments: ["--round-interval", "1"])

            var status = try b.status()
            do {
                try b.harness.waitFor("B to report A's message lost", seconds: 30) {
                    for device in [a, b] { _ = try? device.cli("sync", "now") }
                    status = try b.status()
                    return status.state == "lost"
                }
            } catch {
                Issue.record("\(error): \(status)")
            }
            #expect(status.gaps == nil, "\(status)")
            #expect(status.lostGaps == [SyncGap(device: deviceA, missing: "\(gone)", requestedAt: status.lostGaps?.first?.requestedAt, lostAt: status.lostGaps?.first?.lostAt)],
                    "\(status)")
            let text = try b.cli("sync", "status").stdout
            #expect(text.contains("Sync: lost"), "\(text)")
            #expect(text.contains("Lost: device \(deviceA) sent messages \(gone) that never arrived here, and it no longer holds them"), "\(text)")
            #expect(text.contains("Changes that device made may be missing on this device"), "\(text)")
            let notes = try Self.notes(b)
            #expect(notes.contains("A three") && !notes.contains("A two, gone"), "\(notes)")
        }
    }
}
