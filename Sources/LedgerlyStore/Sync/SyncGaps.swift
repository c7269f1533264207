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
///
/// Three more messages close what numbering alone leaves open (D520–D522): a **heartbeat** says
/// the highest number a device has sent, so a drop of its *last* messages shows too; **gone**
/// says a device no longer holds numbers asked of it, so the receiver reports them as lost for
/// good and stops asking; and a request is **answered once**, so a request the hub replays sends
/// nothing again.
enum SyncGaps {
    /// The `entity` of a re-send request: fields `device` (whose messages) and `ranges`
    /// (`[[from, to], …]`). Not a synced thing: nothing keeps it but the device it names.
    static let resendEntity = "resend"
    /// The `entity` of a heartbeat: field `sent`, the highest number the device had given a
    /// message when it made this one. Not numbered itself (no `seq`), so a later heartbeat
    /// supersedes an earlier one and none is ever asked for again.
    static let heartbeatEntity = "heartbeat"
    /// The `entity` of the answer to a re-send request for numbers the device no longer holds:
    /// field `ranges` (`[[from, to], …]`, the sender's own numbers). Numbered like any message.
    static let goneEntity = "gone"
    /// How many sent messages a device keeps for a re-send: the window within which a dropped
    /// message can be recovered (older ones are answered `gone`).
    static let keptSent: Int64 = 20_000
    /// How long a receiver waits before asking again for the same missing numbers.
    static let askAgainAfter: Int64 = 10 * 60 * 1_000
    /// How long after the last message it numbered a device waits before its heartbeat (D520):
    /// writes that follow each other closer than this share one heartbeat, so a busy device adds
    /// few hub rows; an idle device sends none.
    static let heartbeatQuiet: Int64 = 1_000
    /// The most ranges one request, or one `gone` answer, carries.
    static let rangesPerMessage = 100

    typealias Ranges = [[Int64]]

    // MARK: The sender

    /// The next number of this device's sequence, for a message going into the outbox; `now`
    /// (milliseconds) is when, for the heartbeat's quiet period.
    static func nextSeq(_ db: Database, at now: Int64) throws -> Int64 {
        try db.execute(cached: "UPDATE sync_state SET sent_seq = sent_seq + 1, numbered_at = ? WHERE id = 1", arguments: [now])
        return try db.cachedValue(Int64.self, sql: "SELECT sent_seq FROM sync_state WHERE id = 1") ?? 0
    }

    /// Keeps a sent message for a re-send; the oldest past the window go.
    static func keep(_ db: Database, seq: Int64, text: String) throws {
        try db.execute(cached: "INSERT OR REPLACE INTO sync_sent (seq, message) VALUES (?, ?)", arguments: [seq, text])
        if seq > keptSent { try db.execute(cached: "DELETE FROM sync_sent WHERE seq <= ?", arguments: [seq - keptSent]) }
    }

    /// Whether this device owes a heartbeat: it numbered messages since its last one. `sync status`
    /// counts it as waiting to go out, so `synced` is said only once the heartbeat is out.
    static func heartbeatOwed(_ db: Database) throws -> Bool {
        try db.cachedValue(Bool.self, sql: "SELECT sent_seq > heartbeat_seq FROM sync_state WHERE id = 1") ?? false
    }

    /// Puts a heartbeat in the outbox when one is owed, everything numbered has been pushed (the
    /// outbox is empty, so the heartbeat reaches the hub after every message it counts) and no
    /// message was numbered for `heartbeatQuiet` (D520). Returns whether it did.
    static func heartbeatIfDue(identities: SyncIdentities) throws -> Bool {
        let db = identities.db
        guard let row = try db.cachedRow(sql: "SELECT sent_seq, heartbeat_seq, numbered_at FROM sync_state WHERE id = 1") else { return false }
        let sent: Int64 = row[0], covered: Int64 = row[1], numberedAt: Int64? = row[2]
        let since = identities.requestNow - (numberedAt ?? 0)
        // A wall clock set back since (negative) does not hold the heartbeat back for as long.
        guard sent > covered, since >= heartbeatQuiet || since < 0, try SyncStateRow.outboxCount(db) == 0 else { return false }
        let message = SyncMessage(entity: heartbeatEntity, gid: "\(heartbeatEntity):\(identities.device)", hlc: try identities.nextClock().description,
                                  device: identities.device, localId: nil, deleted: false, fields: ["sent": .integer(sent)], clocks: [:])
        try db.execute(cached: "INSERT INTO sync_outbox (message) VALUES (?)", arguments: [try SyncFields.text(message)])
        try db.execute(cached: "UPDATE sync_state SET heartbeat_seq = ? WHERE id = 1", arguments: [sent])
        return true
    }

    /// A `resend` request naming this device: the kept messages in its ranges go out again, each
    /// with a new clock reading and its own number, and the numbers no longer kept are answered
    /// with one `gone` message (D521). A request is answered once (D522): one at or below the
    /// newest number already answered from its device is a replay (the hub's, or the requester's
    /// own re-send of it to fill a third device's gap) or was superseded by that newer request,
    /// which asked for everything still missing then; it sends nothing. Returns how many
    /// messages went out again.
    static func resend(_ request: SyncMessage, identities: SyncIdentities) throws -> Int {
        guard case .string(let target) = request.fields["device"], target == identities.device,
              case .array(let ranges) = request.fields["ranges"] else { return 0 }
        let db = identities.db
        if let number = request.seq {
            let answered = try db.cachedValue(Int64.self, sql: "SELECT answered_request FROM sync_peers WHERE device = ?", arguments: [request.device]) ?? 0
            guard number > answered else { return 0 }
            try db.execute(cached: "UPDATE sync_peers SET answered_request = ? WHERE device = ?", arguments: [number, request.device])
        }
        var sent = 0
        var gone: Ranges = []
        for range in ranges.prefix(rangesPerMessage) {
            guard case .array(let bounds) = range, bounds.count == 2, case .integer(let from) = bounds[0], case .integer(let to) = bounds[1], from <= to else { continue }
            let rows = try Row.fetchAll(db, sql: "SELECT seq, message FROM sync_sent WHERE seq BETWEEN ? AND ? ORDER BY seq LIMIT 5000", arguments: [from, to])
            for row in rows {
                var message = try MessageCoding.decoder().decode(SyncMessage.self, from: Data((row[1] as String).utf8))
                message.hlc = try identities.nextClock().description
                try db.execute(cached: "INSERT INTO sync_outbox (message) VALUES (?)", arguments: [try SyncFields.text(message)])
                sent += 1
            }
            // What is not kept (past the window, or from before another ledger) is gone.
            let kept = try Int64.fetchAll(db, sql: "SELECT seq FROM sync_sent WHERE seq BETWEEN ? AND ? ORDER BY seq", arguments: [from, to])
            gone += complement(of: kept, in: from, to)
        }
        if !gone.isEmpty {
            let answered = Array(gone.prefix(rangesPerMessage))
            try identities.enqueue(SyncMessage(
                entity: goneEntity, gid: "\(goneEntity):\(identities.device)", hlc: "", device: identities.device, localId: nil, deleted: false,
                fields: ["ranges": .array(answered.map { .array($0.map(JSONValue.integer)) })], clocks: [:]))
            identities.notices.append("device \(request.device.prefix(8)) asked for messages this device no longer keeps (\(text(answered))): it was told they are gone")
        }
        return sent
    }

    /// The numbers from `from` to `to` that `kept` (ascending, within them) leaves out, as ranges.
    static func complement(of kept: [Int64], in from: Int64, _ to: Int64) -> Ranges {
        var ranges: Ranges = []
        var next = from
        for number in kept where number >= next {
            if number > next { ranges.append([next, number - 1]) }
            next = number + 1
        }
        if next <= to { ranges.append([next, to]) }
        return ranges
    }

    // MARK: The receiver

    /// What this device knows of another device's numbers (`sync_peers`).
    private struct Peer {
        var last: Int64
        var missing: Ranges
        var lost: Ranges
        var known: Bool

        static func load(_ db: Database, device: String) throws -> Peer {
            guard let row = try db.cachedRow(sql: "SELECT last_seq, missing, lost FROM sync_peers WHERE device = ?", arguments: [device]) else {
                return Peer(last: 0, missing: [], lost: [], known: false)
            }
            return Peer(last: row[0], missing: try SyncGaps.ranges(row[1]), lost: try SyncGaps.ranges(row[2]), known: true)
        }

        func save(_ db: Database, device: String) throws {
            try db.execute(cached: """
                INSERT INTO sync_peers (device, last_seq, missing, lost) VALUES (?, ?, ?, ?)
                ON CONFLICT (device) DO UPDATE SET last_seq = excluded.last_seq, missing = excluded.missing, lost = excluded.lost
                """, arguments: [device, last, try SyncFields.text(missing), try SyncFields.text(lost)])
        }
    }

    private static func ranges(_ text: String) throws -> Ranges {
        try MessageCoding.decoder().decode(Ranges.self, from: Data(text.utf8))
    }

    /// On a ledger that synced before it followed numbers (`gap_baseline`, D461), the first
    /// number heard of a device is its start.
    private static func baseline(_ db: Database) throws -> Bool {
        try db.cachedValue(Bool.self, sql: "SELECT gap_baseline FROM sync_state WHERE id = 1") ?? false
    }

    /// Follows another device's numbers: a number past the next one opens a gap, a missing (or
    /// lost) one that arrives closes it. On a ledger that synced before it followed numbers
    /// (`gap_baseline`, D461), the first number seen from a device is its start: the numbers
    /// before it were sent while this device ignored them, so they are no gap (and a drop in that
    /// first window goes unnoticed).
    static func observe(_ db: Database, device: String, seq: Int64) throws {
        var peer = try Peer.load(db, device: device)
        if !peer.known, try baseline(db) { peer.last = seq - 1 }
        if seq > peer.last {
            if seq > peer.last + 1 { peer.missing.append([peer.last + 1, seq - 1]) }
            peer.last = seq
        } else {
            peer.missing = subtract(peer.missing, [[seq, seq]])
            peer.lost = subtract(peer.lost, [[seq, seq]])
        }
        try peer.save(db, device: device)
    }

    /// A heartbeat (D520): `device` says it has numbered messages up to `sent`; those past the
    /// last one seen here are missing (the hub sends a device's rows in the order it pushed them,
    /// so they would have come before the heartbeat). A heartbeat the hub replays says nothing new.
    static func heard(_ db: Database, device: String, sent: Int64) throws {
        var peer = try Peer.load(db, device: device)
        if !peer.known, try baseline(db) { peer.last = sent }
        guard sent > peer.last else {
            if !peer.known { try peer.save(db, device: device) }
            return
        }
        peer.missing.append([peer.last + 1, sent])
        peer.last = sent
        try peer.save(db, device: device)
    }

    /// A `gone` answer (D521): `device` no longer holds these numbers of its own. Those missing
    /// here are lost for good: reported as such, and not asked for again.
    static func lose(_ message: SyncMessage, _ db: Database, at now: String) throws {
        guard case .array(let values) = message.fields["ranges"] else { return }
        let gone: Ranges = values.prefix(rangesPerMessage).compactMap { value -> [Int64]? in
            guard case .array(let bounds) = value, bounds.count == 2, case .integer(let from) = bounds[0], case .integer(let to) = bounds[1], from <= to else { return nil }
            return [from, to]
        }
        var peer = try Peer.load(db, device: message.device)
        let lost = intersect(peer.missing, gone)
        guard !lost.isEmpty else { return }
        peer.missing = subtract(peer.missing, gone)
        peer.lost = union(peer.lost, lost)
        try peer.save(db, device: message.device)
        try db.execute(cached: "UPDATE sync_peers SET lost_at = ? WHERE device = ?", arguments: [now, message.device])
    }

    /// Asks each device with a gap to send the missing numbers again: once, and again when the
    /// gap changed or `askAgainAfter` has passed. Numbers lost for good are not asked for.
    static func requestResends(identities: SyncIdentities, now: String) throws {
        let db = identities.db
        let nowMilliseconds = identities.requestNow
        for row in try Row.fetchAll(db, sql: "SELECT device, missing, requested, requested_at FROM sync_peers WHERE missing != '[]'") {
            let device: String = row[0], missing: String = row[1]
            let requested: String? = row[2], requestedAt: String? = row[3]
            let askedLately = requestedAt.flatMap { try? Timestamp.milliseconds($0, date: nil) }.map { nowMilliseconds - $0 < askAgainAfter } ?? false
            guard requested != missing || !askedLately else { continue }
            let ranges = try ranges(missing)
            try identities.enqueue(SyncMessage(
                entity: resendEntity, gid: "resend:\(device)", hlc: "", device: identities.device, localId: nil, deleted: false,
                fields: ["device": .string(device), "ranges": .array(ranges.prefix(rangesPerMessage).map { .array($0.map(JSONValue.integer)) })], clocks: [:]))
            try db.execute(cached: "UPDATE sync_peers SET requested = ?, requested_at = ? WHERE device = ?", arguments: [missing, now, device])
        }
    }

    /// The known gaps, for `sync status`.
    static func gaps(_ db: Database) throws -> [SyncGap] {
        try Row.fetchAll(db, sql: "SELECT device, missing, requested_at FROM sync_peers WHERE missing != '[]' ORDER BY device").map { row in
            SyncGap(device: row[0], missing: text(try ranges(row[1])), requestedAt: row[2])
        }
    }

    /// The numbers lost for good (their sender answered `gone`), for `sync status` (D521).
    static func lostGaps(_ db: Database) throws -> [SyncGap] {
        try Row.fetchAll(db, sql: "SELECT device, lost, requested_at, lost_at FROM sync_peers WHERE lost != '[]' ORDER BY device").map { row in
            SyncGap(device: row[0], missing: text(try ranges(row[1])), requestedAt: row[2], lostAt: row[3])
        }
    }

    /// Ranges as the user reads them: "5-7, 9".
    static func text(_ ranges: Ranges) -> String {
        ranges.map { $0[0] == $0[1] ? "\($0[0])" : "\($0[0])-\($0[1])" }.joined(separator: ", ")
    }

    /// Another ledger: the numbers start again, followed strictly from 1 (no `gap_baseline`).
    static func forget(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_sent; DELETE FROM sync_peers; UPDATE sync_state SET sent_seq = 0, heartbeat_seq = 0, numbered_at = NULL, gap_baseline = 0 WHERE id = 1")
    }

    // MARK: Ranges

    /// `ranges` without the numbers in `cut`.
    static func subtract(_ ranges: Ranges, _ cut: Ranges) -> Ranges {
        cut.reduce(ranges) { kept, piece in
            kept.flatMap { range -> Ranges in
                guard range[0] <= piece[1], piece[0] <= range[1] else { return [range] }
                return [[range[0], piece[0] - 1], [piece[1] + 1, range[1]]].filter { $0[0] <= $0[1] }
            }
        }
    }

    /// The numbers both hold.
    static func intersect(_ ranges: Ranges, _ other: Ranges) -> Ranges {
        ranges.flatMap { range in
            other.compactMap { piece -> [Int64]? in
                let from = max(range[0], piece[0]), to = min(range[1], piece[1])
                return from <= to ? [from, to] : nil
            }
        }.sorted { $0[0] < $1[0] }
    }

    /// The numbers either holds, in order, touching ranges joined.
    static func union(_ ranges: Ranges, _ other: Ranges) -> Ranges {
        var joined: Ranges = []
        for range in (ranges + other).sorted(by: { $0[0] < $1[0] }) {
            if let last = joined.last, range[0] <= last[1] + 1 {
                joined[joined.count - 1][1] = max(last[1], range[1])
            } else {
                joined.append(range)
            }
        }
        return joined
    }
}
