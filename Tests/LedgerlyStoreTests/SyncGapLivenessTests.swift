import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// The three holes numbering alone left open (issue 44, D520–D522), store to store with the hub
/// played by an array that can drop and replay rows: a drop of a device's *last* messages shows
/// through its heartbeat; numbers a device no longer holds are answered `gone` and reported lost
/// without being asked for forever; a replayed re-send request sends nothing again.
@Suite struct SyncGapLivenessTests {
    /// A hub whose rows the test can drop and replay: positions only ever grow, as PostgreSQL's.
    final class Hub {
        var rows: [SyncIncoming] = []
        private var position: Int64 = 0

        func append(_ message: SyncMessage) {
            position += 1
            rows.append(SyncIncoming(hubSeq: position, message: message))
        }

        /// Pushes what `store` has to send, as `ledgerly-sync` does (with the heartbeat, D520).
        func push(_ store: Store) async throws {
            while true {
                let stamp = try await store.call(SyncStampRequest(heartbeat: true))
                let page = try await store.call(SyncOutboxRequest(limit: 300))
                for entry in page.entries where !rows.contains(where: { $0.message.device == entry.message.device && $0.message.hlc == entry.message.hlc }) {
                    append(entry.message)
                }
                if let last = page.entries.last { _ = try await store.call(SyncPushedRequest(throughId: last.id)) }
                if page.entries.isEmpty && stamp.stampingDone { return }
            }
        }

        /// Applies every row after what `store` applied, then reports a successful round.
        @discardableResult
        func pull(_ store: Store) async throws -> [String] {
            let after = try await store.call(SyncStatusRequest()).pulledSeq
            let reply = try await store.call(SyncApplyRequest(messages: rows.filter { $0.hubSeq > after }))
            _ = try await store.call(SyncReportRequest(error: nil, waitingIn: 0))
            return reply.notices
        }

        func rows(of device: String) -> [SyncIncoming] { rows.filter { $0.message.device == device } }

        /// A device's rows other than heartbeats (which go whenever a quiet second has passed).
        func numbered(of device: String) -> [SyncIncoming] { rows(of: device).filter { $0.message.entity != SyncGaps.heartbeatEntity } }
    }

    /// A (a filled ledger, synced) and B (joined); both settled, heartbeats and all.
    static func twoDevices() async throws -> (a: Store, b: Store, hub: Hub, deviceA: String) {
        let (a, _) = try await SyncMergeTests.filledStore()
        let deviceA = SyncMergeTests.device()
        _ = try await a.call(SyncEnableRequest(ledgerId: SyncMergeTests.ledger, deviceId: deviceA, hub: "h", mode: .create))
        let hub = Hub()
        try await hub.push(a)
        let b = try await Store(setUp: false)
        _ = try await b.call(SyncEnableRequest(ledgerId: SyncMergeTests.ledger, deviceId: SyncMergeTests.device(), hub: "h", mode: .join))
        try await hub.pull(b)
        return (a, b, hub, deviceA)
    }

    /// Time passes on a store: its clock runs `seconds` ahead from now on.
    static func later(_ stores: [Store], seconds: Int64) throws {
        for store in stores { try store.setClock(offsetSeconds: seconds) }
    }

    /// Three new transactions on `store`, each its own numbered message.
    static func threeWrites(_ store: Store, _ prefix: String) async throws {
        let cash = try #require(try await store.call(WalletListRequest()).wallets.first { $0.name == "Cash" })
        for number in 1...3 {
            _ = try await store.call(TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "1.00", notes: "\(prefix) \(number)", date: "2026-11-10"))
        }
    }

    static func notes(_ store: Store) async throws -> Set<String> {
        Set(try await store.call(TransactionListRequest(limit: 1_000)).transactions.compactMap(\.notes))
    }

    // MARK: Item 1: the heartbeat

    /// A writes three transactions; the hub drops the last two before B pulls. Without a later
    /// number nothing would show; A's heartbeat ("sent up to N") does: B reports the gap, asks,
    /// and the re-send heals it. The heartbeat waits for a quiet second and goes once per burst;
    /// an idle device sends nothing.
    @Test func aDropOfADevicesLastMessagesShowsThroughItsHeartbeat() async throws {
        let (a, b, hub, deviceA) = try await Self.twoDevices()
        // A's first push owed a heartbeat, which waits for a quiet second.
        #expect(try await a.call(SyncStatusRequest()).waitingOut == 1)
        try Self.later([a, b], seconds: 2)
        try await hub.push(a)
        let heartbeats = hub.rows(of: deviceA).filter { $0.message.entity == SyncGaps.heartbeatEntity }
        #expect(heartbeats.count == 1 && heartbeats.first?.message.seq == nil, "\(heartbeats)")
        #expect(try await a.call(SyncStatusRequest()).waitingOut == 0)
        try await hub.pull(b)

        try await Self.threeWrites(a, "A")
        try Self.later([a, b], seconds: 4)
        try await hub.push(a)
        try Self.later([a, b], seconds: 6)
        try await hub.push(a)
        let sent = hub.rows(of: deviceA).suffix(4).map(\.message)
        #expect(sent.map(\.entity) == ["transaction", "transaction", "transaction", SyncGaps.heartbeatEntity], "\(sent.map(\.entity))")
        let last = try #require(sent[2].seq)
        #expect(sent[3].fields["sent"] == .integer(last))
        // Idle: nothing more, however much time passes.
        let settled = hub.rows.count
        try Self.later([a, b], seconds: 60)
        try await hub.push(a)
        #expect(hub.rows.count == settled)

        // The hub drops A's last two transactions; only the heartbeat tells B.
        hub.rows.removeAll { $0.message.device == deviceA && ($0.message.seq == last || $0.message.seq == last - 1) }
        try await hub.pull(b)
        let status = try await b.call(SyncStatusRequest())
        #expect(status.gaps == [SyncGap(device: deviceA, missing: "\(last - 1)-\(last)", requestedAt: status.gaps?.first?.requestedAt)], "\(status)")
        #expect(status.gaps?.first?.requestedAt != nil && status.state == "syncing")
        let arrived = try await Self.notes(b)
        #expect(arrived.contains("A 1") && !arrived.contains("A 2") && !arrived.contains("A 3"), "\(arrived)")

        // B asks; A sends them again; the gap heals and the two ledgers agree.
        try await hub.push(b)
        try await hub.pull(a)
        try await hub.push(a)
        try await hub.pull(b)
        #expect(try await b.call(SyncStatusRequest()).gaps == nil)
        #expect(try await Self.notes(b) == Self.notes(a))
        #expect(try await SyncMergeTests.snapshot(b) == SyncMergeTests.snapshot(a))
    }

    /// A heartbeat from a device whose numbers this device already holds says nothing new, and a
    /// replayed (older) one neither.
    @Test func aHeartbeatAtOrBelowTheNumbersHeldOpensNoGap() throws {
        let queue = try DatabaseQueue()
        try StoreMigrations.migrator().migrate(queue)
        let peer = "3f9a6c1e-2b4d-4e8f-9a10-5c6d7e8f9a0b"
        let gaps = try queue.write { db in
            try SyncGaps.observe(db, device: peer, seq: 1)
            try SyncGaps.observe(db, device: peer, seq: 2)
            try SyncGaps.heard(db, device: peer, sent: 2)
            try SyncGaps.heard(db, device: peer, sent: 1)
            let none = try SyncGaps.gaps(db)
            try SyncGaps.heard(db, device: peer, sent: 4)
            try SyncGaps.observe(db, device: peer, seq: 3)
            let after = try SyncGaps.gaps(db).map(\.missing)
            return (none, after)
        }
        #expect(gaps.0.isEmpty && gaps.1 == ["4"], "\(gaps)")
    }

    // MARK: Item 2: gone for good

    /// The hub drops one of A's messages and A no longer holds it (as past its window). B asks;
    /// A answers `gone`; B reports the number as lost (state `lost`, never `synced`) and does
    /// not ask again, even long after; the number arriving after all would close it.
    @Test func aNumberTheSenderNoLongerHoldsIsReportedLostAndNotAskedForAgain() async throws {
        let (a, b, hub, deviceA) = try await Self.twoDevices()
        try Self.later([a, b], seconds: 2)
        try await hub.push(a)
        try await hub.pull(b)
        try await Self.threeWrites(a, "A")
        try await hub.push(a)
        let middle = try #require(hub.rows(of: deviceA).filter { $0.message.entity == "transaction" }.suffix(3).map(\.message.seq)[1])
        hub.rows.removeAll { $0.message.device == deviceA && $0.message.seq == middle }
        try await a.database.pool.write { db in try db.execute(sql: "DELETE FROM sync_sent WHERE seq = ?", arguments: [middle]) }

        try await hub.pull(b)
        #expect(try await b.call(SyncStatusRequest()).gaps?.first?.missing == "\(middle)")
        try await hub.push(b)
        let notices = try await hub.pull(a)
        #expect(notices.contains { $0.contains("no longer keeps (\(middle))") }, "\(notices)")
        try await hub.push(a)
        let gone = try #require(hub.numbered(of: deviceA).last?.message)
        #expect(gone.entity == SyncGaps.goneEntity && gone.fields["ranges"] == .array([.array([.integer(middle), .integer(middle)])]) && gone.seq != nil, "\(gone)")
        try await hub.pull(b)

        // B's own request owed a heartbeat: once it is out, B is settled, and says `lost`.
        try Self.later([a, b], seconds: 4)
        try await hub.push(b)
        try await hub.pull(b)
        var status = try await b.call(SyncStatusRequest())
        #expect(status.gaps == nil && status.state == "lost", "\(status)")
        #expect(status.lostGaps?.count == 1 && status.lostGaps?.first?.device == deviceA && status.lostGaps?.first?.missing == "\(middle)" && status.lostGaps?.first?.lostAt != nil,
                "\(status)")

        // Eleven minutes on (past the ten after which a gap is asked for again): nothing asked.
        let before = hub.rows.count
        try Self.later([a, b], seconds: 11 * 60)
        _ = try await b.call(SyncApplyRequest(messages: []))
        try await hub.push(b)
        #expect(hub.rows.count == before, "\(hub.rows.suffix(hub.rows.count - before).map(\.message.entity))")

        // The lost number arriving after all (the hub had only withheld it) closes it.
        try await b.database.pool.write { db in try SyncGaps.observe(db, device: deviceA, seq: middle) }
        status = try await b.call(SyncStatusRequest())
        #expect(status.lostGaps == nil && status.state == "synced", "\(status)")
    }

    // MARK: Item 3: a request is answered once

    /// B's re-send request, replayed by the hub after A answered it, sends nothing again, however
    /// often; a newer request (A's answer was dropped too, and B asks again ten minutes on) is
    /// answered, and the gap heals.
    @Test func aReplayedResendRequestSendsNothingAgain() async throws {
        let (a, b, hub, deviceA) = try await Self.twoDevices()
        try Self.later([a, b], seconds: 2)
        try await hub.push(a)
        try await hub.pull(b)
        try await Self.threeWrites(a, "A")
        try await hub.push(a)
        let middle = try #require(hub.numbered(of: deviceA).suffix(3).map(\.message.seq)[1])
        hub.rows.removeAll { $0.message.device == deviceA && $0.message.seq == middle }
        try await hub.pull(b)
        try await hub.push(b)
        let request = try #require(hub.rows.last { $0.message.entity == SyncGaps.resendEntity })
        try await hub.pull(a)
        try await hub.push(a)
        #expect(hub.numbered(of: deviceA).last?.message.seq == middle, "A sends it again")
        // The hub drops that too, before B pulls it.
        hub.rows.removeAll { $0.message.device == deviceA && $0.message.seq == middle }
        try await hub.pull(b)

        // The hub replays B's request, twice: A sends nothing again.
        let answered = hub.numbered(of: deviceA).count
        hub.append(request.message)
        hub.append(request.message)
        try await hub.pull(a)
        try await hub.push(a)
        #expect(hub.numbered(of: deviceA).count == answered, "\(hub.numbered(of: deviceA).suffix(3).map(\.message.entity))")

        // Ten minutes on B asks again, with a newer request; A answers that one; the gap heals.
        try Self.later([a, b], seconds: 12 * 60)
        _ = try await b.call(SyncApplyRequest(messages: []))
        try await hub.push(b)
        let again = try #require(hub.rows.last { $0.message.entity == SyncGaps.resendEntity })
        #expect((again.message.seq ?? 0) > (request.message.seq ?? 0))
        try await hub.pull(a)
        try await hub.push(a)
        #expect(hub.numbered(of: deviceA).last?.message.seq == middle)
        try await hub.pull(b)
        #expect(try await b.call(SyncStatusRequest()).gaps == nil)
        #expect(try await Self.notes(b) == Self.notes(a))
    }

    @Test func rangesSubtractIntersectJoinAndComplement() {
        #expect(SyncGaps.subtract([[1, 10]], [[3, 4], [10, 12]]) == [[1, 2], [5, 9]])
        #expect(SyncGaps.intersect([[1, 5], [8, 9]], [[4, 8]]) == [[4, 5], [8, 8]])
        #expect(SyncGaps.union([[5, 6], [1, 2]], [[3, 3], [9, 9]]) == [[1, 3], [5, 6], [9, 9]])
        #expect(SyncGaps.union([[1, 3]], [[4, 6], [2, 5]]) == [[1, 6]])
        #expect(SyncGaps.complement(of: [2, 3, 7], in: 1, 9) == [[1, 1], [4, 6], [8, 9]])
        #expect(SyncGaps.complement(of: [], in: 4, 4) == [[4, 4]])
        #expect(SyncGaps.text([[1, 1], [4, 6]]) == "1, 4-6")
    }
}
