import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Gaps: a message the hub dropped (or one quarantined here) must not go unnoticed while every
/// device says `synced` (issue 44, finding 3; D446).
///
/// Each device numbers the messages it sends, 1, 2, 3, … (`SyncMessage.seq`, inside the seal, so
/// the hub cannot renumber them), and keeps the last `keptSent` it sent (`sync_sent`). A receiver
/// follows each other device's numbers (`sync_peers`): a number skipped is a gap, shown in `sync
/// status` (which device, which numbers), and while one is known the state is not `synced`. The
/// receiver asks for the missing numbers with a `resend` message through the hub; the device
/// that sent them puts them in its outbox again, with a new clock reading (the hub keeps one row
/// per device and clock) and their own numbers and field clocks, so applying them is the merge it
/// would have been. A gap heals when the numbers arrive.
enum SyncGaps {
    /// The `entity` of a re-send request: fields `device` (whose messages) and `ranges`
    /// (`[[from, to], …]`). Not a synced thing: nothing keeps it but the device it names.
    static let resendEntity = "resend"
    /// How many sent messages a device keeps for a re-send: the window within which a dropped
    /// message can be recovered (older ones are reported as gaps and stay missing).
    static let keptSent: Int64 = 20_000
    /// How long a receiver waits before asking again for the same missing numbers.
    static let askAgainAfter: Int64 = 10 * 60 * 1_000

    typealias Ranges = [[Int64]]

    // MARK: The sender

    /// The next number of this device's sequence, for a message going into the outbox.
    static func nextSeq(_ db: Database) throws -> Int64 {
        try db.execute(cached: "UPDATE sync_state SET sent_seq = sent_seq + 1 WHERE id = 1")
        return try db.cachedValue(Int64.self, sql: "SELECT sent_seq FROM sync_state WHERE id = 1") ?? 0
    }

    /// Keeps a sent message for a re-send; the oldest past the window go.
    static func keep(_ db: Database, seq: Int64, text: String) throws {
        try db.execute(cached: "INSERT OR REPLACE INTO sync_sent (seq, message) VALUES (?, ?)", arguments: [seq, text])
        if seq > keptSent { try db.execute(cached: "DELETE FROM sync_sent WHERE seq <= ?", arguments: [seq - keptSent]) }
    }

    /// A `resend` request naming this device: the kept messages in its ranges go out again, each
    /// with a new clock reading and its own number. Returns how many; a number no longer kept
    /// (past the window) is said in a notice.
    static func resend(_ request: SyncMessage, identities: SyncIdentities) throws -> Int {
        guard case .string(let target) = request.fields["device"], target == identities.device,
              case .array(let ranges) = request.fields["ranges"] else { return 0 }
        let db = identities.db
        var sent = 0
        var gone: [Int64] = []
        for range in ranges.prefix(100) {
            guard case .array(let bounds) = range, bounds.count == 2, case .integer(let from) = bounds[0], case .integer(let to) = bounds[1], from <= to else { continue }
            let rows = try Row.fetchAll(db, sql: "SELECT seq, message FROM sync_sent WHERE seq BETWEEN ? AND ? ORDER BY seq LIMIT 5000", arguments: [from, to])
            var found = Set<Int64>()
            for row in rows {
                var message = try MessageCoding.decoder().decode(SyncMessage.self, from: Data((row[1] as String).utf8))
                message.hlc = try identities.nextClock().description
                try db.execute(cached: "INSERT INTO sync_outbox (message) VALUES (?)", arguments: [try SyncFields.text(message)])
                found.insert(row[0])
                sent += 1
            }
            if Int64(found.count) < to - from + 1, let missing = (from...min(to, from + 10_000)).first(where: { !found.contains($0) }) { gone.append(missing) }
        }
        if !gone.isEmpty {
            identities.notices.append("device \(request.device.prefix(8)) asked for messages this device no longer keeps (from number \(gone[0])): they stay missing there")
        }
        return sent
    }

    // MARK: The receiver

    /// Follows another device's numbers: a number past the next one opens a gap, a missing one
    /// that arrives closes it. On a ledger that synced before it followed numbers
    /// (`gap_baseline`, D461), the first number seen from a device is its start: the numbers
    /// before it were sent while this device ignored them, so they are no gap (and a drop in that
    /// first window goes unnoticed).
    static func observe(_ db: Database, device: String, seq: Int64) throws {
        let row = try db.cachedRow(sql: "SELECT last_seq, missing FROM sync_peers WHERE device = ?", arguments: [device])
        let baseline = row == nil ? try db.cachedValue(Bool.self, sql: "SELECT gap_baseline FROM sync_state WHERE id = 1") ?? false : false
        var last: Int64 = row?[0] ?? (baseline ? seq - 1 : 0)
        var missing = try row.map { try MessageCoding.decoder().decode(Ranges.self, from: Data(($0[1] as String).utf8)) } ?? []
        if seq > last {
            if seq > last + 1 { missing.append([last + 1, seq - 1]) }
            last = seq
        } else {
            missing = missing.flatMap { range -> Ranges in
                guard range.count == 2, range[0] <= seq, seq <= range[1] else { return [range] }
                return [[range[0], seq - 1], [seq + 1, range[1]]].filter { $0[0] <= $0[1] }
            }
        }
        try db.execute(cached: """
            INSERT INTO sync_peers (device, last_seq, missing) VALUES (?, ?, ?)
            ON CONFLICT (device) DO UPDATE SET last_seq = excluded.last_seq, missing = excluded.missing
            """, arguments: [device, last, try SyncFields.text(missing)])
    }

    /// Asks each device with a gap to send the missing numbers again: once, and again when the
    /// gap changed or `askAgainAfter` has passed.
    static func requestResends(identities: SyncIdentities, now: String) throws {
        let db = identities.db
        let nowMilliseconds = identities.requestNow
        for row in try Row.fetchAll(db, sql: "SELECT device, missing, requested, requested_at FROM sync_peers WHERE missing != '[]'") {
            let device: String = row[0], missing: String = row[1]
            let requested: String? = row[2], requestedAt: String? = row[3]
            let askedLately = requestedAt.flatMap { try? Timestamp.milliseconds($0, date: nil) }.map { nowMilliseconds - $0 < askAgainAfter } ?? false
            guard requested != missing || !askedLately else { continue }
            let ranges = try MessageCoding.decoder().decode(Ranges.self, from: Data(missing.utf8))
            try identities.enqueue(SyncMessage(
                entity: resendEntity, gid: "resend:\(device)", hlc: "", device: identities.device, localId: nil, deleted: false,
                fields: ["device": .string(device), "ranges": .array(ranges.map { .array($0.map(JSONValue.integer)) })], clocks: [:]))
            try db.execute(cached: "UPDATE sync_peers SET requested = ?, requested_at = ? WHERE device = ?", arguments: [missing, now, device])
        }
    }

    /// The known gaps, for `sync status`.
    static func gaps(_ db: Database) throws -> [SyncGap] {
        try Row.fetchAll(db, sql: "SELECT device, missing, requested_at FROM sync_peers WHERE missing != '[]' ORDER BY device").map { row in
            let ranges = try MessageCoding.decoder().decode(Ranges.self, from: Data((row[1] as String).utf8))
            return SyncGap(device: row[0], missing: ranges.map { $0[0] == $0[1] ? "\($0[0])" : "\($0[0])-\($0[1])" }.joined(separator: ", "), requestedAt: row[2])
        }
    }

    /// Another ledger: the numbers start again, followed strictly from 1 (no `gap_baseline`).
    static func forget(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_sent; DELETE FROM sync_peers; UPDATE sync_state SET sent_seq = 0, gap_baseline = 0 WHERE id = 1")
    }
}
