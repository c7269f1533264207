import Foundation
import GRDB
import LedgerlyCore
@testable import LedgerlyStore
import Testing

/// D464: a local change is stamped at the time of its write (D441), but never later than the
/// stamping request's own time: a write made while the machine's clock was wrong (years ahead)
/// must not push this device's clock ahead for good.
@Suite struct SyncStampClockTests {
    static func identities(_ db: Database, at date: Date) throws -> SyncIdentities {
        try db.execute(sql: "UPDATE sync_state SET enabled = 1, ledger_id = '6f1c2a9e-3b7d-4c0e-9a55-0d2f3e4b5a61', device_id = 'b7e24d90-1c5a-4f3e-9d68-2a0f4c7e1b55' WHERE id = 1")
        return try SyncIdentities(db: db, state: try SyncStateRow.current(db), date: date)
    }

    @Test func aChangeWrittenUnderAClockAheadIsStampedAtTheRequestsTime() throws {
        let queue = try DatabaseQueue()
        try StoreMigrations.migrator().migrate(queue)
        let request = Date(timeIntervalSince1970: 1_765_112_400)  // 2025-12-07T13:00:00Z
        try queue.write { db in
            let identities = try Self.identities(db, at: request)
            let ahead = try identities.stamping(at: "2100-01-01T00:00:00.000Z") { try identities.nextClock() }
            #expect(ahead.milliseconds == 1_765_112_400_000, "\(ahead)")
        }
        // A write from before the request keeps its own time (D441).
        try queue.write { db in
            let identities = try Self.identities(db, at: request)
            let earlier = try identities.stamping(at: "2025-12-07T12:00:00.000Z") { try identities.nextClock() }
            #expect(earlier.milliseconds == 1_765_108_800_000, "\(earlier)")
        }
    }
}
