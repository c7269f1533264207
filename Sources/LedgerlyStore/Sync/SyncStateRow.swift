import Foundation
import GRDB
import LedgerlyProtocol

/// The one row of `sync_state`: whether this device syncs, with which hub ledger and as which
/// device, its clock, how far local changes are stamped and the hub's messages applied, and how
/// the last round went.
struct SyncStateRow {
    var enabled: Bool
    var ledgerId: String?
    var deviceId: String?
    var hub: String?
    var clock: String?
    /// The last change-log `seq` whose things are stamped.
    var stampedSeq: Int64
    /// A scan of every thing in progress (after enabling, or a restore): the kind and the last
    /// local id done; nil when none.
    var scanEntity: String?
    var scanAfter: Int64
    var pulledSeq: Int64
    var lastSuccess: String?
    var lastError: String?
    var lastErrorAt: String?
    var waitingIn: Int?
    var notices: [String]
    /// The ledger a rekey elsewhere put in place of this one (D482): set by `sync.report`,
    /// cleared by `sync.enable`.
    var rejoinLedgerId: String?
    /// How the hub knew this device on the last connection a round reported (D531).
    var hubAuthentication: String?

    /// How many notices `sync status` keeps.
    static let keptNotices = 20

    static func current(_ db: Database) throws -> SyncStateRow {
        guard let row = try db.cachedRow(sql: """
            SELECT enabled, ledger_id, device_id, hub, clock, stamped_seq, scan_entity, scan_after, pulled_seq, last_success, last_error, last_error_at, waiting_in, notices,
                rejoin_ledger_id, hub_authentication
            FROM sync_state WHERE id = 1
            """) else { throw LedgerError.broken("the sync state row is missing") }
        return SyncStateRow(
            enabled: row[0], ledgerId: row[1], deviceId: row[2], hub: row[3], clock: row[4], stampedSeq: row[5], scanEntity: row[6], scanAfter: row[7],
            pulledSeq: row[8], lastSuccess: row[9], lastError: row[10], lastErrorAt: row[11], waitingIn: row[12],
            notices: try MessageCoding.decoder().decode([String].self, from: .init((row[13] as String).utf8)), rejoinLedgerId: row[14], hubAuthentication: row[15])
    }

    func save(_ db: Database) throws {
        try db.execute(cached: """
            UPDATE sync_state SET enabled = ?, ledger_id = ?, device_id = ?, hub = ?, stamped_seq = ?, scan_entity = ?, scan_after = ?, pulled_seq = ?,
                last_success = ?, last_error = ?, last_error_at = ?, waiting_in = ?, notices = ?, rejoin_ledger_id = ?, hub_authentication = ? WHERE id = 1
            """, arguments: [enabled, ledgerId, deviceId, hub, stampedSeq, scanEntity, scanAfter, pulledSeq, lastSuccess, lastError, lastErrorAt, waitingIn,
                             try SyncFields.text(Array(notices.suffix(Self.keptNotices))), rejoinLedgerId, hubAuthentication])
    }

    /// Messages stamped and not yet pushed.
    static func outboxCount(_ db: Database) throws -> Int {
        try db.cachedValue(Int.self, sql: "SELECT count(*) FROM sync_outbox") ?? 0
    }

    /// Outbox entries, plus one for local changes not stamped yet, plus one for a heartbeat owed
    /// (D520: `synced` once it is out, so an idle device sends nothing more).
    func waitingOut(_ db: Database) throws -> Int {
        let outbox = try Self.outboxCount(db)
        let unstamped = try db.cachedValue(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM change_log WHERE seq > ?)", arguments: [stampedSeq]) ?? false
        let heartbeat = try SyncGaps.heartbeatOwed(db)
        return outbox + (unstamped || scanEntity != nil ? 1 : 0) + (heartbeat ? 1 : 0)
    }

    func status(_ db: Database) throws -> SyncStatusReply {
        let waitingOut = enabled ? try waitingOut(db) : try Self.outboxCount(db)
        // `synced` means no known gap (D446).
        let gaps = enabled ? try SyncGaps.gaps(db) : []
        let state: String
        if !enabled { state = "off" }
        else if rejoinLedgerId != nil { state = "rejoin" }
        else if let errorAt = lastErrorAt, errorAt >= (lastSuccess ?? "") { state = "error" }
        else if lastSuccess == nil || waitingOut > 0 || (waitingIn ?? 0) > 0 || !gaps.isEmpty { state = "syncing" }
        else { state = "synced" }
        var reply = SyncStatusReply(state: state, ledgerId: ledgerId, deviceId: deviceId, hub: hub, lastSuccess: lastSuccess, lastError: lastError, lastErrorAt: lastErrorAt,
                                    waitingOut: waitingOut, waitingIn: waitingIn, pulledSeq: pulledSeq, notices: notices)
        try SyncSetAsideRows.add(to: &reply, db)
        // `synced` means no known gap and nothing held: changes with a clock too far ahead wait
        // to be applied, so the device says `held` until they are (D492).
        if reply.state == "synced", (reply.heldTotal ?? 0) > 0 { reply.state = "held" }
        if !gaps.isEmpty { reply.gaps = gaps }
        // Messages gone for good are never `synced` either (D521).
        let lost = enabled ? try SyncGaps.lostGaps(db) : []
        if !lost.isEmpty {
            reply.lostGaps = lost
            if reply.state == "synced" || reply.state == "held" { reply.state = "lost" }
        }
        if enabled { reply.rejoinLedgerId = rejoinLedgerId }
        if enabled { reply.hubAuthentication = hubAuthentication }
        return reply
    }
}
