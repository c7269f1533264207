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
        try scan(table: LiabilityEntryRow.databaseTableName, db, after: after, limit: limit)
    }

    /// Every entry of one liability, for a stamp of the liability's change.
    static func ids(ofLiability liabilityId: Int64, _ db: Database) throws -> [Int64] {
        try LiabilityEntryRow.ids(ofLiability: liabilityId, db)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let (entry, currency) = try LiabilityEntryRow.withCurrency(db, id: id) else { return nil }
        let payment = try entry.transactionId.map { transactionId in
            let paid = try TransactionHandlers.fetch(db, id: transactionId)
            return Payment(wallet: try identities.gid(WalletSync.self, localId: paid.walletId), amount: paid.amount, currency: paid.currency, walletAmount: paid.walletAmount,
                           baseAmount: paid.baseAmount, conversion: paid.conversion, baseConversion: paid.baseConversion, notes: paid.notes,
                           transactionLocalId: try identities.frozenHint(self, localId: id, createdAt: entry.createdAt, path: ["payment", "transactionLocalId"], current: transactionId), createdAt: paid.createdAt, updatedAt: paid.updatedAt)
        }
        return try SyncFields.object(Fields(
            liability: try identities.gid(LiabilitySync.self, localId: entry.liabilityId), date: entry.date, kind: LiabilityEntryKind(rawValue: entry.kind) ?? .balance,
            amount: InputRules.format(entry.amountMinor, currency), notes: entry.notes, payment: payment, createdAt: entry.createdAt))
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
            try LiabilityEntryRow.updateSynced(db, id: localId, date: date, amountMinor: amount, notes: notes, createdAt: fields.createdAt)
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
            var entry = LiabilityEntryRow(id: try SyncNames.freeId(idHint, table: LiabilityEntryRow.databaseTableName, db), liabilityId: liabilityId, date: date,
                                          kind: fields.kind.rawValue, amountMinor: amount, walletId: walletId, transactionId: transactionId, notes: notes, createdAt: fields.createdAt)
            try entry.insert(db)
            id = entry.id ?? 0
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
