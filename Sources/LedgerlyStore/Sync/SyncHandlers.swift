import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `sync.enable`, `sync.disable`, `sync.stamp`, `sync.outbox`, `sync.pushed`, `sync.apply`,
/// `sync.report`, `sync.status`: this device's side of sync. The hub is `ledgerly-sync`'s business; the store
/// keeps identities, clocks and the outbox in the same SQL transactions as the ledger.
enum SyncHandlers {
    /// Things stamped per `sync.stamp` (an import's event counts whole).
    static let stampBudget = 2_000

    static func enable(_ request: SyncEnableRequest, _ context: inout WriteContext) throws -> SyncStatusReply {
        let db = context.db
        let ledgerId = try identifier(request.ledgerId, field: "ledgerId")
        let deviceId = try identifier(request.deviceId, field: "deviceId")
        var state = try SyncStateRow.current(db)
        if request.mode == .rekey {
            // A ledger that replaces this device's old one (D481): the same things, so identities
            // and clocks stay; what belonged to the old ledger's traffic starts again.
            try db.execute(sql: "DELETE FROM sync_outbox")
            try SyncSetAsideRows.forget(db)
            try SyncGaps.forget(db)
            state.pulledSeq = 0
            state.ledgerId = ledgerId
            state.deviceId = deviceId
            let identities = try SyncIdentities(db: db, state: state, date: context.date)
            // Local changes not stamped yet get their clocks first, so the snapshot holds them.
            while try !SyncStamper.run(&state, identities: identities, budget: .max) {}
            try SyncRekeySnapshot.enqueueAll(identities: identities)
            try identities.save()
        } else if state.ledgerId != ledgerId || state.deviceId != deviceId {
            // Another ledger (or this device starts over): what was known of the old one goes.
            try db.execute(sql: "DELETE FROM sync_ids; DELETE FROM sync_outbox; UPDATE sync_state SET clock = NULL WHERE id = 1")
            try SyncSetAsideRows.forget(db)
            try SyncGaps.forget(db)
            state.pulledSeq = 0
            state.notices = []
        }
        switch request.mode {
        case .join:
            if let held = try heldThing(db) {
                throw LedgerError.conflict("this device already holds a ledger (\(held)): joining would mix two ledgers; merge it into the hub's (`ledgerly sync enable --merge`) or join from a new home", field: .body("mode"))
            }
            // Nothing here to send: only what changes from now on.
            state.scanEntity = nil
        case .create, .merge:
            state.scanEntity = SyncedThings.all.first?.entity
        case .rekey:
            // Everything is in the outbox already (above); the change log is stamped through.
            state.scanEntity = nil
        }
        state.scanAfter = 0
        if request.mode != .rekey {
            state.stampedSeq = try db.cachedValue(Int64.self, sql: "SELECT ifnull(max(seq), 0) FROM change_log") ?? 0
        }
        state.enabled = true
        state.ledgerId = ledgerId
        state.deviceId = deviceId
        // What another hub's connection used says nothing of this one (D531).
        if state.hub != request.hub { state.hubAuthentication = nil }
        state.hub = request.hub
        state.lastError = nil
        state.lastErrorAt = nil
        state.rejoinLedgerId = nil
        try state.save(db)
        return try state.status(db)
    }

    static func disable(_ request: SyncDisableRequest, _ context: inout WriteContext) throws -> SyncStatusReply {
        var state = try SyncStateRow.current(context.db)
        state.enabled = false
        try state.save(context.db)
        return try state.status(context.db)
    }

    static func stamp(_ request: SyncStampRequest, _ context: inout WriteContext) throws -> SyncStampReply {
        let db = context.db
        var state = try enabledState(db)
        let identities = try SyncIdentities(db: db, state: state, date: context.date)
        let done = try SyncStamper.run(&state, identities: identities, budget: stampBudget)
        // The heartbeat goes last, once everything it counts is out (D520).
        if done, request.heartbeat == true { _ = try SyncGaps.heartbeatIfDue(identities: identities) }
        try identities.save()
        try state.save(db)
        return SyncStampReply(waiting: try SyncStateRow.outboxCount(db), stampingDone: done)
    }

    static func outbox(_ request: SyncOutboxRequest, _ db: Database) throws -> SyncOutboxReply {
        let limit = request.limit ?? 500
        guard (1...5_000).contains(limit) else { throw LedgerError.invalid("body.limit must be 1 to 5000, got \(limit)", field: .body("limit")) }
        _ = try enabledState(db)
        let rows = try Row.fetchAll(db, sql: "SELECT id, message FROM sync_outbox ORDER BY id LIMIT ?", arguments: [limit])
        let entries = try rows.map { SyncOutboxEntry(id: $0[0], message: try MessageCoding.decoder().decode(SyncMessage.self, from: Data(($0[1] as String).utf8))) }
        let total = try SyncStateRow.outboxCount(db)
        return SyncOutboxReply(entries: entries, waiting: total - entries.count)
    }

    static func pushed(_ request: SyncPushedRequest, _ context: inout WriteContext) throws -> SyncPushedReply {
        _ = try enabledState(context.db)
        try context.db.execute(sql: "DELETE FROM sync_outbox WHERE id <= ?", arguments: [request.throughId])
        return SyncPushedReply(removed: context.db.changesCount)
    }

    static func apply(_ request: SyncApplyRequest, _ context: inout WriteContext) throws -> SyncApplyReply {
        let db = context.db
        var state = try enabledState(db)
        let identities = try SyncIdentities(db: db, state: state, date: context.date)
        // Local changes first get their clocks, so the merge compares like with like.
        while try !SyncStamper.run(&state, identities: identities, budget: .max) {}
        var applier = SyncApplier(identities: identities)
        // Held messages whose clock has come near enough go first: they are older in hub order.
        for held in try SyncSetAsideRows.takeDue(db, now: identities.requestNow) { try applier.applyHeld(held.message, &context) }
        // The batch in hub order, rows that did not open or decode passed over (D444).
        var quarantined = (request.quarantined ?? []).sorted { $0.hubSeq < $1.hubSeq }[...]
        func passQuarantined(through seq: Int64) throws {
            while let first = quarantined.first, first.hubSeq <= seq {
                quarantined.removeFirst()
                let row = HubProvidedText.setAside(first)
                guard row.hubSeq > state.pulledSeq else { continue }
                state.pulledSeq = row.hubSeq
                try SyncSetAsideRows.quarantine(db, row, at: context.now)
                identities.notices.append("hub row \(row.hubSeq) (device \(row.device.prefix(8))) is quarantined and passed over: \(row.reason)")
            }
        }
        for incoming in request.messages {
            try passQuarantined(through: incoming.hubSeq - 1)
            try applier.apply(incoming, state: &state, &context)
        }
        try passQuarantined(through: .max)
        // Gaps seen, or still open, are asked for again (D446).
        try SyncGaps.requestResends(identities: identities, now: context.now)
        // The events just logged are stamped too: they send nothing (the states match what was
        // applied) except a rename made here, and `sync status` does not show them as waiting.
        while try !SyncStamper.run(&state, identities: identities, budget: .max) {}
        try identities.save()
        state.notices.append(contentsOf: identities.notices)
        try state.save(db)
        return SyncApplyReply(applied: applier.applied, unchanged: applier.unchanged, pulledSeq: state.pulledSeq, notices: identities.notices)
    }

    static func report(_ request: SyncReportRequest, _ context: inout WriteContext) throws -> SyncStatusReply {
        if let waiting = request.waitingIn, waiting < 0 {
            throw LedgerError.invalid("body.waitingIn must not be negative, got \(waiting)", field: .body("waitingIn"))
        }
        var state = try enabledState(context.db)
        if let error = request.error {
            // The error may quote the hub (a server's message): made inert for the terminal (D463).
            state.lastError = HubProvidedText.escaped(error)
            state.lastErrorAt = context.now
        } else {
            state.lastSuccess = context.now
        }
        if let waiting = request.waitingIn { state.waitingIn = waiting }
        if let authentication = request.hubAuthentication { state.hubAuthentication = HubProvidedText.escaped(authentication) }
        if let successor = request.rejoinLedgerId {
            // Kept until `sync.enable` (a re-join): a later round's report does not clear it.
            state.rejoinLedgerId = try identifier(successor, field: "rejoinLedgerId")
        }
        try state.save(context.db)
        return try state.status(context.db)
    }

    static func status(_ request: SyncStatusRequest, _ db: Database) throws -> SyncStatusReply {
        try SyncStateRow.current(db).status(db)
    }

    // MARK: Helpers

    private static func enabledState(_ db: Database) throws -> SyncStateRow {
        let state = try SyncStateRow.current(db)
        guard state.enabled else { throw LedgerError.conflict("sync is off on this device (`ledgerly sync enable`)") }
        return state
    }

    /// A lower-case UUID: the hub's ids are PostgreSQL uuids, and the device id sorts inside clocks.
    private static func identifier(_ text: String, field: String) throws -> String {
        guard let uuid = UUID(uuidString: text), uuid.uuidString.lowercased() == text else {
            throw LedgerError.invalid("body.\(field) must be a lower-case UUID, got \(InputEcho.quoted(text))", field: .body(field))
        }
        return text
    }

    /// Something that makes this a ledger of its own: a wallet, a category or a transaction.
    private static func heldThing(_ db: Database) throws -> String? {
        for (table, what) in [("wallets", "wallets"), ("categories", "categories"), ("transactions", "transactions")]
        where try db.cachedValue(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") == true {
            return what
        }
        return nil
    }
}
