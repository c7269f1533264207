import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Global ids, field clocks and the outbox, for one write.
///
/// Why stamping lives here: a thing's fields name other things by global id, and a thing that has
/// none yet (rare: it changed in the same batch of events, later in it) is stamped on the spot,
/// so its message is in the outbox before the message that names it and every device learns of
/// it first.
final class SyncIdentities {
    let db: Database
    let device: String
    private(set) var clock: HybridLogicalClock
    /// What conflicts did in this write, in words for the user.
    var notices: [String] = []
    /// The wall time the next reading is taken at (milliseconds): the request's, or while a
    /// change-log event is stamped, the time of the write that logged it (`stamping(at:)`).
    private var now: Int64
    /// The request's own wall time.
    let requestNow: Int64

    init(db: Database, state: SyncStateRow, date: Date) throws {
        self.db = db
        guard let device = state.deviceId else { throw LedgerError.conflict("sync is not enabled on this device (`ledgerly sync enable`)") }
        self.device = device
        clock = state.clock.flatMap(HybridLogicalClock.init) ?? .zero(device: device)
        requestNow = Int64((date.timeIntervalSince1970 * 1_000).rounded(.down))
        now = requestNow
    }

    /// Takes the clock of what `body` stamps at `written`, the time of the write transaction that
    /// made the change, not at the moment `ledgerly-sync` asks for a stamp (issue 44, C2; D441):
    /// an edit made while sync was stopped or the hub down keeps its own time, so an edit made
    /// later on another device wins. Causality holds because `sync.apply` stamps every waiting
    /// local change before it receives anything, so a change is stamped with the clock as it
    /// was when the user made it (plus what arrived before). A time that does not read (never,
    /// the store writes it) falls back to the request's.
    ///
    /// Never later than the request's own time (D464): a write made while the machine's clock was
    /// wrong (years ahead, then corrected) would otherwise push this device's clock, which only
    /// moves forward, ahead for good, and every later change here would win over newer ones.
    func stamping<T>(at written: String, _ body: () throws -> T) rethrows -> T {
        if let milliseconds = try? Timestamp.milliseconds(written, date: nil) { now = min(milliseconds, requestNow) }
        defer { now = requestNow }
        return try body()
    }

    /// Keeps the clock for the next write.
    func save() throws {
        try db.execute(cached: "UPDATE sync_state SET clock = ? WHERE id = 1", arguments: [clock.description])
    }

    func nextClock() throws -> HybridLogicalClock {
        do {
            clock = try clock.tick(now: now)
        } catch {
            throw LedgerError.conflict(error.description)
        }
        return clock
    }

    func receive(_ remote: HybridLogicalClock) { clock = clock.receiving(remote) }

    // MARK: Ids

    /// The global id of a local thing, stamping it first when it has none.
    func gid(_ thing: any SyncedThing.Type, localId: Int64) throws -> String {
        if let known = try SyncIdentityRow.find(db, entity: thing.entity, localId: localId) {
            // Claimed and not sent yet (an auto-fund's transfer): sent now, before what names it.
            if known.clocks.isEmpty { try stamp(thing, localId: localId) }
            return known.gid
        }
        try stamp(thing, localId: localId)
        guard let made = try SyncIdentityRow.find(db, entity: thing.entity, localId: localId) else {
            throw LedgerError.broken("\(thing.entity) \(localId) is named by a synced thing but cannot be synced itself")
        }
        return made.gid
    }

    /// The local id of a thing other devices name; refused when this device has not heard of it
    /// (messages arrive in the order they were made, so that is a broken hub or message).
    func localId(_ thing: any SyncedThing.Type, gid: String, field: String) throws -> Int64 {
        guard let row = try SyncIdentityRow.find(db, entity: thing.entity, gid: gid), let id = row.localId else {
            throw LedgerError.invalid("a synced message names \(thing.entity) \(gid) in \(field), which this device does not have", field: .body("messages"))
        }
        return id
    }

    /// A creation hint (another row's local id on the device that made the thing: a transfer's
    /// incoming leg, a payment's transaction) as it was first sent or received for this thing,
    /// else `current`. Local ids differ from device to device, so a hint read afresh on each one
    /// would differ from what arrived and re-stamp the thing every round, forever (issue 44, C1;
    /// D440): the hint is frozen at the value the thing was made with. `path` walks into the
    /// fields (`["payment", "transactionLocalId"]`); `createdAt` tells a reused local id's new
    /// thing from the old one.
    func frozenHint(_ thing: any SyncedThing.Type, localId: Int64, createdAt: String, path: [String], current: Int64) throws -> Int64 {
        guard let known = try SyncIdentityRow.find(db, entity: thing.entity, localId: localId), known.fields["createdAt"] == .string(createdAt) else { return current }
        var value: JSONValue? = .object(known.fields)
        for key in path {
            guard case .object(let object) = value else { return current }
            value = object[key]
        }
        guard case .integer(let hint) = value else { return current }
        return hint
    }

    // MARK: Stamping

    /// Compares a local thing with what was last sent or applied and, when it changed, gives the
    /// changed fields a new clock and puts the whole state in the outbox.
    func stamp(_ thing: any SyncedThing.Type, localId: Int64) throws {
        var known = try SyncIdentityRow.find(db, entity: thing.entity, localId: localId)
        let fields = try thing.fields(db, id: localId, identities: self)
        if let fields, let was = known?.fields["createdAt"], let now = fields["createdAt"], was != now, var replaced = known {
            // A new thing under a reused local id (SQLite hands out a deleted last id again):
            // the old one was deleted.
            try tombstone(&replaced)
            known = nil
        }
        guard let fields else {
            if var known, !known.deleted {
                try tombstone(&known)
            }
            return
        }
        if var known {
            let changed = SyncFields.changedKeys(from: known.fields, to: fields)
            guard !changed.isEmpty else { return }
            let clock = try nextClock()
            for key in changed { known.clocks[key] = clock.description }
            known.fields = fields
            try known.save(db)
            try enqueue(SyncMessage(entity: thing.entity, gid: known.gid, hlc: clock.description, device: device, localId: localId, deleted: false, fields: fields, clocks: known.clocks))
        } else {
            let clock = try nextClock()
            var clocks = Dictionary(uniqueKeysWithValues: fields.keys.map { ($0, clock.description) })
            let derived = try thing.derivedGid(db, id: localId, identities: self)
            if let derived, var gone = try SyncIdentityRow.find(db, entity: thing.entity, gid: derived) {
                // Live under another local id would be two things claiming one id (the tables'
                // unique keys rule that out); no local id at all is one another device's message
                // could not record here, which this one now is; a local id whose row is gone
                // without a change event (a typed price a purge removed) is free again.
                let dangling = try gone.localId.map { try thing.fields(db, id: $0, identities: self) == nil } ?? false
                guard gone.deleted || gone.localId == nil || dangling else {
                    throw LedgerError.broken("\(thing.entity) \(localId) and \(gone.localId.map(String.init) ?? "another") would share the synced id \(derived)")
                }
                // Made again after a delete: the newer "deleted" clock tells every device it lives.
                if gone.deleted { clocks["deleted"] = clock.description }
                gone.deleted = false
                gone.localId = localId
                gone.clocks = clocks
                gone.fields = fields
                try gone.save(db)
                try enqueue(SyncMessage(entity: thing.entity, gid: derived, hlc: clock.description, device: device, localId: localId, deleted: false, fields: fields, clocks: clocks))
                return
            }
            let row = SyncIdentityRow(entity: thing.entity, gid: derived ?? UUID().uuidString.lowercased(), localId: localId, deleted: false, clocks: clocks, fields: fields)
            try row.insert(db)
            try enqueue(SyncMessage(entity: thing.entity, gid: row.gid, hlc: clock.description, device: device, localId: localId, deleted: false, fields: fields, clocks: clocks))
        }
    }

    /// Gives a thing just made the global id every device gives it (a recurring occurrence,
    /// `SyncOccurrence`), before it is stamped; its first stamp sends every field.
    func claim(_ thing: any SyncedThing.Type, gid: String, localId: Int64) throws {
        try SyncIdentityRow(entity: thing.entity, gid: gid, localId: localId, deleted: false, clocks: [:], fields: [:]).insert(db)
    }

    /// Gone: a tombstone, which keeps the global id but frees the local one (ids are reused).
    private func tombstone(_ known: inout SyncIdentityRow) throws {
        let clock = try nextClock()
        known.deleted = true
        known.localId = nil
        known.clocks["deleted"] = clock.description
        try known.save(db)
        try enqueue(SyncMessage(entity: known.entity, gid: known.gid, hlc: clock.description, device: device, localId: nil, deleted: true, fields: [:], clocks: known.clocks))
    }

    /// Puts a message in the outbox with this device's next number (`SyncGaps`), taking a clock
    /// reading for it when it has none (a re-send request), and keeps it for a re-send.
    func enqueue(_ message: SyncMessage) throws {
        var message = message
        if message.hlc.isEmpty { message.hlc = try nextClock().description }
        message.seq = try SyncGaps.nextSeq(db, at: requestNow)
        let text = try SyncFields.text(message)
        try db.execute(cached: "INSERT INTO sync_outbox (message) VALUES (?)", arguments: [text])
        try SyncGaps.keep(db, seq: message.seq ?? 0, text: text)
    }
}
