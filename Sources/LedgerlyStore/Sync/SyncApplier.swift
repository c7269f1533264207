import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Merges other devices' messages into the ledger (docs/sync.md, "Merging").
///
/// Per field, the value with the greater clock wins (the device id inside the clock breaks a
/// tie the same way everywhere). A delete is final: a tombstone removes the thing, and an edit
/// that arrives for a deleted thing is dropped with a notice. When the merged fields break a
/// ledger rule (two devices changed the amount and the split parts apart), the message with the
/// greater clock wins whole, and the user is told.
struct SyncApplier {
    let identities: SyncIdentities
    private(set) var applied = 0
    private(set) var unchanged = 0

    init(identities: SyncIdentities) { self.identities = identities }

    mutating func apply(_ incoming: SyncIncoming, state: inout SyncStateRow, _ context: inout WriteContext) throws {
        let message = incoming.message
        guard incoming.hubSeq > state.pulledSeq else { unchanged += 1; return }
        state.pulledSeq = incoming.hubSeq
        guard message.device != identities.device else { unchanged += 1; return }
        let db = context.db
        // Its number, seen: a gap opens or closes (D446). A held message counts as received.
        if let seq = message.seq, seq > 0 { try SyncGaps.observe(db, device: message.device, seq: seq) }
        // A clock that is not one is a message that does not decode: put aside, never fatal (D444).
        guard HybridLogicalClock(message.hlc) != nil, let newest = SyncSetAsideRows.newestClock(message) else {
            try SyncSetAsideRows.quarantine(db, SyncSetAside(hubSeq: incoming.hubSeq, device: message.device, hlc: message.hlc,
                                                             reason: "a clock in it is not a clock reading"), at: context.now)
            identities.notices.append("hub row \(incoming.hubSeq) from device \(message.device.prefix(8)) has a clock that is not one: it is quarantined and passed over")
            unchanged += 1
            return
        }
        // A heartbeat: the highest number its device has sent, so a drop of that device's last
        // messages shows as a gap too (D520). Counted even when its clock is too far ahead: it
        // changes no record.
        if message.entity == SyncGaps.heartbeatEntity {
            if case .integer(let sent) = message.fields["sent"], sent > 0 { try SyncGaps.heard(db, device: message.device, sent: sent) }
            unchanged += 1
            return
        }
        // Too far ahead of this device's wall clock: held, its clock not received (D445).
        if newest > identities.requestNow + SyncSetAsideRows.clockTolerance {
            let minutes = (newest - identities.requestNow) / 60_000
            try SyncSetAsideRows.hold(db, hubSeq: incoming.hubSeq, message: message, clockMilliseconds: newest,
                                      reason: "its clock (\(Timestamp.string(milliseconds: newest))) is \(minutes) minutes ahead of this device's; held until it is within \(SyncSetAsideRows.clockTolerance / 60_000)",
                                      at: context.now)
            identities.notices.append("a change from device \(message.device.prefix(8)) carries a clock \(minutes) minutes ahead of this device's: it is held, not applied (`ledgerly sync status`)")
            unchanged += 1
            return
        }
        try merge(message, &context)
    }

    /// A held message whose clock has come within the tolerance: merged now, in hub order among
    /// the held (its hub position was passed when it was held).
    mutating func applyHeld(_ message: SyncMessage, _ context: inout WriteContext) throws {
        try merge(message, &context)
    }

    /// Merges one message whose clocks are sane (docs/sync.md, "Merging").
    private mutating func merge(_ message: SyncMessage, _ context: inout WriteContext) throws {
        guard let clock = HybridLogicalClock(message.hlc) else { unchanged += 1; return }
        identities.receive(clock)
        if message.entity == SyncGaps.resendEntity {
            _ = try SyncGaps.resend(message, identities: identities)
            unchanged += 1
            return
        }
        if message.entity == SyncGaps.goneEntity {
            // Numbers its sender no longer holds: lost for good here, and not asked for again (D521).
            try SyncGaps.lose(message, context.db, at: context.now)
            unchanged += 1
            return
        }
        guard let thing = SyncedThings.kind(message.entity) else {
            identities.notices.append("a change to a \(message.entity) from device \(message.device.prefix(8)) was passed over: this version of Ledgerly does not sync that kind of thing yet (update it)")
            unchanged += 1
            return
        }
        let db = context.db
        var known = try SyncIdentityRow.find(db, entity: thing.entity, gid: message.gid)
        if var gone = known, gone.deleted, !message.deleted, let revived = message.clocks["deleted"], revived > (gone.clocks["deleted"] ?? "") {
            // A thing with a derived id made again after the delete (a category's new budget).
            gone.deleted = false
            gone.localId = nil
            try gone.save(db)
            known = gone
        }
        if known?.deleted == true {
            if !message.deleted {
                identities.notices.append("a change to \(thing.entity) \(message.gid.prefix(8)) from device \(message.device.prefix(8)) arrived after it was deleted: the delete stands")
            }
            unchanged += 1
            return
        }
        if message.deleted {
            try applyDelete(thing, message: message, known: known, context: &context)
            return
        }
        guard var row = known, let localId = row.localId else {
            let outcome = try context.undoingRefusal { context in
                try thing.write(message.fields, gid: message.gid, localId: nil, idHint: message.localId, identities: identities, &context)
            }
            switch outcome {
            case .success(let id):
                let made = SyncIdentityRow(entity: thing.entity, gid: message.gid, localId: id, deleted: false, clocks: message.clocks, fields: message.fields)
                if known == nil { try made.insert(db) } else { try made.save(db) }
                applied += 1
            case .failure(let refusal):
                // One thing this device's ledger refuses (a transaction for a wallet archived here
                // meanwhile) must not stop every later message: it is passed over, and said.
                identities.notices.append("a new \(thing.entity) from device \(message.device.prefix(8)) could not be recorded here (\(refusal.reason)); it is left out on this device")
                unchanged += 1
            }
            return
        }
        var fields = row.fields
        var clocks = row.clocks
        for (key, clock) in message.clocks where clock > (clocks[key] ?? "") {
            fields[key] = message.fields[key]
            clocks[key] = clock
        }
        let changed = !SyncFields.changedKeys(from: row.fields, to: fields).isEmpty
        if changed {
            let outcome = try context.undoingRefusal { context in
                try thing.write(fields, gid: message.gid, localId: localId, idHint: nil, identities: identities, &context)
            }
            // A write may keep the thing under a new local id (a typed price a purge had removed
            // is stored again): the identity follows it.
            if case .success(let written) = outcome { row.localId = written }
            if case .failure(let refusal) = outcome {
                let localNewest = row.clocks.values.max() ?? ""
                // The newer message whole, when it is the newer one and this ledger takes it; a
                // refusal of that too must not stop every later message, so this version stands.
                // "Newer" is the message's newest field clock, not its `hlc`: a re-sent message
                // (a gap's re-send) has a fresh `hlc` but its old fields and clocks, and must be
                // the merge it would have been, never an old version winning whole (D460).
                let messageNewest = message.clocks.values.max() ?? message.hlc
                let whole = messageNewest > localNewest ? try context.undoingRefusal { context in
                    try thing.write(message.fields, gid: message.gid, localId: localId, idHint: nil, identities: identities, &context)
                } : nil
                guard case .success(let written) = whole else {
                    let reason = if case .failure(let again) = whole { again.reason } else { refusal.reason }
                    identities.notices.append("a change to \(thing.entity) \(localId) from device \(message.device.prefix(8)) did not fit this device's \(whole == nil ? "newer change" : "ledger") (\(reason)): this device's version stands")
                    row.clocks = clocks.merging(row.clocks) { max($0, $1) }
                    try row.save(db)
                    unchanged += 1
                    return
                }
                row.localId = written
                identities.notices.append("changes to \(thing.entity) \(localId) made apart did not fit together (\(refusal.reason)): the newer one, from device \(message.device.prefix(8)), stands whole")
                fields = message.fields
                clocks = message.clocks
            }
        }
        row.fields = fields
        row.clocks = clocks
        try row.save(db)
        known = row
        if changed { applied += 1 } else { unchanged += 1 }
    }

    private mutating func applyDelete(_ thing: any SyncedThing.Type, message: SyncMessage, known: SyncIdentityRow?, context: inout WriteContext) throws {
        let db = context.db
        guard var row = known else {
            // Made and deleted elsewhere before this device heard of it: remembered as deleted.
            try SyncIdentityRow(entity: thing.entity, gid: message.gid, localId: nil, deleted: true, clocks: message.clocks, fields: [:]).insert(db)
            unchanged += 1
            return
        }
        if let localId = row.localId, let kept = try thing.delete(localId: localId, identities: identities, &context) {
            identities.notices.append(kept)
            unchanged += 1
            return
        }
        row.deleted = true
        row.localId = nil
        row.clocks = message.clocks
        row.fields = [:]
        try row.save(db)
        applied += 1
    }
}
