import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// One entry of a liability's history: a balance set, or a payment with the wallet transaction
/// that paid it. Entries are only ever added, so each is its own thing with a random global id and
/// entries two devices added apart are both kept. They have no event of their own: each comes with
/// its liability's `liability.created` / `liability.updated`.
///
/// A payment carries its transaction as recorded (amounts and rate snapshots, as a synced
/// transaction does), so every device's wallet and base totals agree; the transaction is written
/// with the entry and, like a local payment's, cannot be changed on its own.
enum LiabilityEntrySync: SyncedThing {
    static let entity = "liability_entry"

    private struct Fields: Codable {
        var liability: String
        var date: String
        var kind: LiabilityEntryKind
        var amount: String
        var notes: String?
        var payment: Payment?
        var createdAt: String
    }

    /// The payment's wallet transaction as recorded.
    private struct Payment: Codable {
        var wallet: String
        var amount: String
        var currency: String
        var walletAmount: String
        var baseAmount: String?
        var conversion: RateSnapshot?
        var baseConversion: RateSnapshot?
        var notes: String?
        /// Its local id where it was made: a joining device keeps it when free. A hint only, frozen
        /// at the value the entry was made with (D440).
        var transactionLocalId: Int64
        var createdAt: String
        var updatedAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: "liability_entries", db, after: after, limit: limit)
    }

    /// Every entry of one liability, for a stamp of the liability's change.
    static func ids(ofLiability liabilityId: Int64, _ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT id FROM liability_entries WHERE liability_id = ? ORDER BY id", arguments: [liabilityId])
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let row = try db.cachedRow(sql: """
            SELECT e.liability_id, e.date, e.kind, e.amount_minor, e.notes, e.transaction_id, e.created_at, l.currency
            FROM liability_entries e JOIN liabilities l ON l.id = e.liability_id WHERE e.id = ?
            """, arguments: [id]) else { return nil }
        let currency: String = row[7]
        let payment = try (row[5] as Int64?).map { transactionId in
            let paid = try TransactionHandlers.fetch(db, id: transactionId)
            return Payment(wallet: try identities.gid(WalletSync.self, localId: paid.walletId), amount: paid.amount, currency: paid.currency, walletAmount: paid.walletAmount,
                           baseAmount: paid.baseAmount, conversion: paid.conversion, baseConversion: paid.baseConversion, notes: paid.notes,
                           transactionLocalId: try identities.frozenHint(self, localId: id, createdAt: row[6], path: ["payment", "transactionLocalId"], current: transactionId), createdAt: paid.createdAt, updatedAt: paid.updatedAt)
        }
        return try SyncFields.object(Fields(
            liability: try identities.gid(LiabilitySync.self, localId: row[0]), date: row[1], kind: LiabilityEntryKind(rawValue: row[2]) ?? .balance,
            amount: InputRules.format(row[3], currency), notes: row[4], payment: payment, createdAt: row[6]))
    }

    /// A history merged from two devices may pay more than was owed (each paid while apart): it is
    /// written, since the money did leave the wallets, and the user is told.
    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let liabilityId = try identities.localId(LiabilitySync.self, gid: fields.liability, field: "liability")
        let liability = try LiabilityRow.find(db, id: liabilityId, field: field)
        let amount = try NetWorthRules.value(fields.amount, currency: try InputRules.currency(liability.currency, field: field), field: field)
        let date = try InputRules.date(fields.date, field: field).description
        let notes = try InputRules.optionalText(fields.notes, field: field)
        guard (fields.kind == .payment) == (fields.payment != nil) else {
            throw LedgerError.invalid("a synced liability entry of kind \(fields.kind.rawValue) \(fields.payment == nil ? "has no" : "has a") payment", field: field)
        }
        let overdrawnBefore = try LiabilityHistory.read(db, liabilityId: liabilityId).firstOverdrawn?.id
        let id: Int64
        if let localId {
            // Entries are never changed where they are made: only its own columns are written
            // again; a payment's transaction stays as recorded.
            try db.execute(sql: "UPDATE liability_entries SET date = ?, amount_minor = ?, notes = ?, created_at = ? WHERE id = ?",
                           arguments: [date, amount, notes, fields.createdAt, localId])
            id = localId
        } else {
            var walletId: Int64?
            var transactionId: Int64?
            if let payment = fields.payment {
                let wallet = try identities.localId(WalletSync.self, gid: payment.wallet, field: "payment.wallet")
                let writer = TransactionWriter(db: db)
                transactionId = try writer.insert(
                    TransactionCreateRequest(kind: .expense, walletId: wallet, amount: payment.amount, currency: payment.currency, notes: payment.notes, date: date),
                    &context, kept: KeptAmounts(walletAmount: payment.walletAmount, baseAmount: payment.baseAmount, conversion: payment.conversion,
                                                baseConversion: payment.baseConversion, id: try SyncNames.freeId(payment.transactionLocalId, table: "transactions", db),
                                                importId: nil, createdAt: payment.createdAt, updatedAt: payment.updatedAt),
                    liability: liabilityId)
                try writer.finish()
                walletId = wallet
                try context.record(.txCreated, id: String(transactionId ?? 0), data: try TransactionHandlers.fetch(db, id: transactionId ?? 0))
            }
            try db.execute(sql: """
                INSERT INTO liability_entries (id, liability_id, date, kind, amount_minor, wallet_id, transaction_id, notes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [try SyncNames.freeId(idHint, table: "liability_entries", db), liabilityId, date, fields.kind.rawValue, amount, walletId, transactionId,
                                 notes, fields.createdAt])
            id = db.lastInsertedRowID
        }
        // Said once, when this entry takes the balance below zero, not again for each later one.
        if let overdrawn = try LiabilityHistory.read(db, liabilityId: liabilityId).firstOverdrawn, overdrawn.id != overdrawnBefore {
            identities.notices.append("payments made on two devices apart pay off more than \(liability.name) owed on \(overdrawn.date): its balance is below zero until a `ledgerly liability revalue` sets it")
        }
        try context.record(.liabilityUpdated, id: String(liabilityId), data: try liability.record(db, withHistory: true))
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "liability entry \(localId) was deleted on another device, but a liability's history is only ever added to: it stays here"
    }
}
