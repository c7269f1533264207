import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A transfer: both legs as one synced thing, known by its outgoing leg's id (the legs are
/// recorded, changed and deleted together). The fields are what an export's restore sends.
enum TransferSync: SyncedThing {
    static let entity = "transfer"

    private struct Fields: Codable {
        var from: String
        var to: String
        var amount: String
        var toAmount: String
        var date: String
        var notes: String?
        var tags: [String]?
        var baseAmount: String?
        var baseConversion: RateSnapshot?
        var incomingBaseAmount: String?
        var incomingBaseConversion: RateSnapshot?
        /// The incoming leg's id where the thing was made: a joining device keeps it when free.
        /// A hint only, frozen at the value the transfer was made with (D440): the legs of one
        /// transfer find each other here by `counterparty_tx_id`, never by this.
        var incomingLocalId: Int64?
        var importKey: String?
        var importId: String?
        var createdAt: String
        var updatedAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        let ids = try TransactionRow.outgoingLegIds(db, after: after, limit: limit)
        return (ids, ids.last ?? after)
    }

    /// An auto-fund's transfer has its month's id, `<goal gid>:<YYYY-MM>`, like its contribution
    /// (D308): also one made before sync was on, which no claim named.
    static func derivedGid(_ db: Database, id: Int64, identities: SyncIdentities) throws -> String? {
        guard let funded = try GoalContributionRow.autoFundMonth(movedBy: id, db) else { return nil }
        return GoalContributionSync.autoFundGid(goal: try identities.gid(GoalSync.self, localId: funded.goalId), month: funded.month)
    }

    /// The outgoing leg's id for either leg of a transfer; nil when `id` is not a transfer leg.
    static func outgoingLeg(_ db: Database, id: Int64) throws -> Int64? {
        try TransactionRow.outgoingLeg(db, id: id)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard try outgoingLeg(db, id: id) == id else { return nil }
        let outgoing = try TransactionHandlers.fetch(db, id: id)
        guard let link = outgoing.transfer else { return nil }
        let incoming = try TransactionHandlers.fetch(db, id: link.counterpartyTransactionId)
        return try SyncFields.object(Fields(
            from: try identities.gid(WalletSync.self, localId: outgoing.walletId), to: try identities.gid(WalletSync.self, localId: incoming.walletId),
            amount: outgoing.walletAmount, toAmount: incoming.walletAmount, date: outgoing.date, notes: outgoing.notes,
            tags: outgoing.tags.isEmpty ? nil : outgoing.tags, baseAmount: outgoing.baseAmount, baseConversion: outgoing.baseConversion,
            incomingBaseAmount: incoming.baseAmount, incomingBaseConversion: incoming.baseConversion, incomingLocalId: try identities.frozenHint(self, localId: id, createdAt: outgoing.createdAt, path: ["incomingLocalId"], current: incoming.id),
            importKey: outgoing.importKey, importId: outgoing.importId, createdAt: outgoing.createdAt, updatedAt: outgoing.updatedAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let request = TransferCreateRequest(
            fromWalletId: try identities.localId(WalletSync.self, gid: fields.from, field: "from"), toWalletId: try identities.localId(WalletSync.self, gid: fields.to, field: "to"),
            amount: fields.amount, toAmount: fields.toAmount, date: fields.date, notes: fields.notes, tags: fields.tags)
        var ids: (outgoing: Int64?, incoming: Int64?)
        if let localId {
            let incoming = try TransactionRow.counterpartyId(db, id: localId)
            try SyncedRows.removeTransactions(db, ids: [localId] + (incoming.map { [$0] } ?? []))
            ids = (localId, incoming)
        } else {
            ids = (try SyncNames.freeId(idHint, table: "transactions", db), try SyncNames.freeId(fields.incomingLocalId, table: "transactions", db))
            if ids.outgoing == nil || ids.incoming == nil || ids.outgoing == ids.incoming { ids = (nil, nil) }
        }
        let writer = TransactionWriter(db: db)
        let legs = try writer.insertTransfer(request, &context, importKey: fields.importKey, kept: KeptAmounts(
            baseAmount: fields.baseAmount, baseConversion: fields.baseConversion, incomingBaseAmount: fields.incomingBaseAmount,
            incomingBaseConversion: fields.incomingBaseConversion, id: ids.outgoing, incomingId: ids.incoming, importId: fields.importId,
            createdAt: fields.createdAt, updatedAt: fields.updatedAt))
        try writer.finish()
        for leg in legs { try context.record(localId == nil ? .txCreated : .txUpdated, id: String(leg), data: try TransactionHandlers.fetch(db, id: leg)) }
        return legs[0]
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        _ = try TransactionHandlers.delete(TransactionDeleteRequest(id: localId), &context)
        return nil
    }
}
