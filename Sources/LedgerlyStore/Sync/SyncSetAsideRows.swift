import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `sync_set_aside`: hub rows this device put aside instead of applying (docs/sync.md, "Rows put
/// aside").
///
/// - **Quarantined**: a row that did not open or decode (random bytes, a seal that names another
///   device or clock, a clock that is not one). Kept for good, counted and named in `sync status`;
///   its hub position counts as applied, so one bad row never stops the rows after it (issue 44,
///   finding 4; D444).
/// - **Held**: a message whose clock is more than `clockTolerance` ahead of this device's wall
///   clock (a device with a wrong clock, or a forged message). Not applied and its clock not
///   received, so this device's clock never jumps ahead by more than the tolerance; applied once
///   the wall clock comes within the tolerance of it (issue 44, finding 5; D445).
enum SyncSetAsideRows {
    /// How far ahead of this device's wall clock a received clock may be: five minutes, far more
    /// than the drift of a clock kept by NTP, and the most a received change can move this
    /// device's clock ahead of its wall clock.
    static let clockTolerance: Int64 = 5 * 60 * 1_000
    /// How many of each `sync status` lists.
    static let listedCount = 20

    /// Stored made inert (`HubProvidedText`, D463): the row's clock and device are the hub's text.
    static func quarantine(_ db: Database, _ row: SyncSetAside, at now: String) throws {
        let row = HubProvidedText.setAside(row)
        try db.execute(cached: """
            INSERT OR IGNORE INTO sync_set_aside (hub_seq, kind, device, hlc, reason, at) VALUES (?, 'quarantined', ?, ?, ?, ?)
            """, arguments: [row.hubSeq, row.device, row.hlc, row.reason, now])
    }

    static func hold(_ db: Database, hubSeq: Int64, message: SyncMessage, clockMilliseconds: Int64, reason: String, at now: String) throws {
        try db.execute(cached: """
            INSERT OR IGNORE INTO sync_set_aside (hub_seq, kind, device, hlc, reason, clock_ms, message, at) VALUES (?, 'held', ?, ?, ?, ?, ?, ?)
            """, arguments: [hubSeq, HubProvidedText.cut(HubProvidedText.escaped(message.device), toBytes: HubProvidedText.clockLimit), message.hlc, reason, clockMilliseconds, try SyncFields.text(message), now])
    }

    /// The held messages whose clock is now within the tolerance of `now` (milliseconds), oldest
    /// hub position first; each is removed from the table as it is returned.
    static func takeDue(_ db: Database, now: Int64) throws -> [(hubSeq: Int64, message: SyncMessage)] {
        let rows = try Row.fetchAll(db, sql: "SELECT hub_seq, message FROM sync_set_aside WHERE kind = 'held' AND clock_ms <= ? ORDER BY hub_seq",
                                    arguments: [now + clockTolerance])
        guard !rows.isEmpty else { return [] }
        try db.execute(sql: "DELETE FROM sync_set_aside WHERE kind = 'held' AND clock_ms <= ?", arguments: [now + clockTolerance])
        return try rows.map { ($0[0], try MessageCoding.decoder().decode(SyncMessage.self, from: Data(($0[1] as String).utf8))) }
    }

    /// The largest clock a message carries (its own and every field's), in milliseconds; nil
    /// when one of them is not a clock reading (such a message is quarantined).
    static func newestClock(_ message: SyncMessage) -> Int64? {
        var newest: Int64 = 0
        for text in [message.hlc] + Array(message.clocks.values) {
            guard let clock = HybridLogicalClock(text) else { return nil }
            newest = max(newest, clock.milliseconds)
        }
        return newest
    }

    /// What `sync status` shows of them: the quarantined (newest 20) and the held (oldest 20),
    /// with counts, and when the first held one comes within the tolerance.
    static func add(to status: inout SyncStatusReply, _ db: Database) throws {
        func listed(_ kind: String, order: String) throws -> [SyncSetAside] {
            try Row.fetchAll(db, sql: "SELECT hub_seq, device, hlc, reason FROM sync_set_aside WHERE kind = ? ORDER BY hub_seq \(order) LIMIT ?",
                             arguments: [kind, listedCount]).map { HubProvidedText.setAside(SyncSetAside(hubSeq: $0[0], device: $0[1], hlc: $0[2], reason: $0[3])) }
        }
        let counts = try Row.fetchAll(db, sql: "SELECT kind, count(*), min(clock_ms) FROM sync_set_aside GROUP BY kind")
        for row in counts {
            let count: Int = row[1]
            if (row[0] as String) == "quarantined" {
                status.quarantinedTotal = count
                status.quarantined = try listed("quarantined", order: "DESC").reversed()
            } else {
                status.heldTotal = count
                status.held = try listed("held", order: "ASC")
                status.heldDueAt = (row[2] as Int64?).map { Timestamp.string(milliseconds: $0 - clockTolerance) }
            }
        }
    }

    /// Another ledger: what was put aside from the old one goes.
    static func forget(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_set_aside")
    }
}
