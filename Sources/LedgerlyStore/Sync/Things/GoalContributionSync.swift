import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Money put towards a goal. An auto-fund contribution's global id is its goal's and its month
/// (`<goal gid>:<YYYY-MM>`), which the transfer that moved its money shares (`SyncOccurrence`):
/// two devices that fund one month while apart end with one contribution and one transfer.
/// A contribution is withdrawn, never deleted, when its transfer is deleted (on any device).
enum GoalContributionSync: SyncedThing {
    static let entity = "goal_contribution"

    private struct Fields: Codable {
        var goal: String
        var amount: String
        var date: String
        /// The transfer that moved the money, when one did.
        var transfer: String?
        var autoFundMonth: String?
        var createdAt: String
        var withdrawnAt: String?
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: "goal_contributions", db, after: after, limit: limit)
    }

    /// Every contribution to one goal, for a stamp of the goal's change (they have no events of
    /// their own: each adds to or withdraws from the goal, which says `goal.updated`).
    static func ids(ofGoal goalId: Int64, _ db: Database) throws -> [Int64] {
        try GoalContributionRow.ids(ofGoal: goalId, db)
    }

    static func derivedGid(_ db: Database, id: Int64, identities: SyncIdentities) throws -> String? {
        guard let funded = try GoalContributionRow.autoFundMonth(id: id, db) else { return nil }
        return autoFundGid(goal: try identities.gid(GoalSync.self, localId: funded.goalId), month: funded.month)
    }

    static func autoFundGid(goal: String, month: String) -> String { "\(goal):\(month)" }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let contribution = try GoalContributionRow.fetchOne(db, key: id),
              let currency = try GoalRow.currency(db, id: contribution.goalId) else { return nil }
        return try SyncFields.object(Fields(
            goal: try identities.gid(GoalSync.self, localId: contribution.goalId), amount: InputRules.format(contribution.amountMinor, currency),
            date: contribution.date, transfer: try transfer(of: contribution, identities: identities),
            autoFundMonth: contribution.autoFundMonth, createdAt: contribution.createdAt, withdrawnAt: contribution.withdrawnAt))
    }

    /// The transfer that moves a counted contribution's money. A withdrawn one names none (D307),
    /// nor one whose link names no transfer's outgoing leg (rows from before D76 may).
    private static func transfer(of contribution: GoalContributionRow, identities: SyncIdentities) throws -> String? {
        guard contribution.withdrawnAt == nil, let id = contribution.transactionId, try TransferSync.outgoingLeg(identities.db, id: id) == id else { return nil }
        return try identities.gid(TransferSync.self, localId: id)
    }

    /// Its transfer must be here (it comes first); one whose transfer was deleted here arrives
    /// withdrawn or is withdrawn as it lands, as the deletion withdrew it on the device it was on.
    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let goalId = try identities.localId(GoalSync.self, gid: fields.goal, field: "goal")
        guard let currency = try GoalRow.currency(db, id: goalId) else {
            throw LedgerError.notFound("a synced contribution's goal is not here", field: field)
        }
        let amount = try InputRules.positiveAmount(fields.amount, currency: try InputRules.currency(currency, field: field), field: field)
        let date = try InputRules.date(fields.date, field: field).description
        let month = try fields.autoFundMonth.map { try BudgetHandlers.month($0, field: field) }
        if let month, gid != autoFundGid(goal: fields.goal, month: month) {
            throw LedgerError.invalid("a synced auto-fund contribution for \(month) does not have that month's id (\(gid))", field: field)
        }
        var withdrawnAt = fields.withdrawnAt
        var transactionId: Int64?
        if let transfer = fields.transfer {
            if let known = try SyncIdentityRow.find(db, entity: TransferSync.entity, gid: transfer), known.deleted {
                withdrawnAt = withdrawnAt ?? context.now
            } else {
                transactionId = try identities.localId(TransferSync.self, gid: transfer, field: "transfer")
            }
        }
        var row = try GoalContributionRow(
            id: localId ?? (try SyncNames.freeId(idHint, table: "goal_contributions", db)), goalId: goalId, amountMinor: amount.minorUnits, date: date,
            transactionId: transactionId, autoFundMonth: month, createdAt: fields.createdAt, withdrawnAt: withdrawnAt)
        if localId != nil { try row.update(db) } else { try row.insert(db) }
        // The goal's progress changed: its ordinary event, without touching the goal (its
        // `updatedAt` is the goal's own field, set by the device that funded it).
        try context.record(.goalUpdated, id: String(goalId), data: try GoalHandlers.fetch(db, id: goalId, field: field, today: Timestamp.today(at: context.date)))
        return row.id ?? 0
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "goal contribution \(localId) was deleted on another device, but contributions are withdrawn, not deleted: it stays here"
    }
}
