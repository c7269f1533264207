import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Saving goals: every field of the goal; what was put towards it travels as its contributions
/// (`GoalContributionSync`), so progress is computed from the same sum on every device. Goals
/// are never deleted. Two goals with one name made apart are both kept, one renamed (`SyncNames`).
enum GoalSync: SyncedThing {
    static let entity = "goal"

    private struct Fields: Codable {
        var name: String
        var target: String
        var currency: String
        var deadline: String?
        var wallet: String?
        var category: String?
        var autoFund: Rule?
        var createdAt: String
        var updatedAt: String
    }

    /// The auto-fund rule with its source wallet named by global id.
    private struct Rule: Codable {
        var kind: AutoFundRule.Kind
        var amount: String?
        var percent: String?
        var dayOfMonth: Int
        var fromWallet: String?
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: "goals", db, after: after, limit: limit)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let goal = try GoalRow.fetchOne(db, key: id) else { return nil }
        let rule = try goal.autoFundRule.map { rule in
            Rule(kind: rule.kind, amount: rule.amount, percent: rule.percent, dayOfMonth: rule.dayOfMonth,
                 fromWallet: try rule.fromWalletId.map { try identities.gid(WalletSync.self, localId: $0) })
        }
        return try SyncFields.object(Fields(
            name: goal.name, target: InputRules.format(goal.targetMinor, goal.currency), currency: goal.currency, deadline: goal.deadline,
            wallet: try goal.walletId.map { try identities.gid(WalletSync.self, localId: $0) },
            category: try goal.categoryId.map { try identities.gid(CategorySync.self, localId: $0) },
            autoFund: rule, createdAt: goal.createdAt, updatedAt: goal.updatedAt))
    }

    /// Checked as a goal made here is, but for the deadline: one that has passed since the goal
    /// was made elsewhere is still its deadline.
    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let currency = try InputRules.currency(fields.currency, field: field)
        let target = try InputRules.positiveAmount(fields.target, currency: currency, field: field)
        let deadline = try fields.deadline.map { try InputRules.date($0, field: field).description }
        let walletId = try fields.wallet.map { try identities.localId(WalletSync.self, gid: $0, field: "wallet") }
        let categoryId = try fields.category.map { try identities.localId(CategorySync.self, gid: $0, field: "category") }
        let rule = try fields.autoFund.map { rule in
            guard (1...28).contains(rule.dayOfMonth) else { throw LedgerError.invalid("a synced goal's auto-fund day is \(rule.dayOfMonth), not 1 to 28", field: field) }
            if let amount = rule.amount { _ = try InputRules.positiveAmount(amount, currency: currency, field: field) }
            return AutoFundRule(kind: rule.kind, amount: rule.amount, percent: rule.percent, dayOfMonth: rule.dayOfMonth,
                                fromWalletId: try rule.fromWallet.map { try identities.localId(WalletSync.self, gid: $0, field: "autoFund.fromWallet") })
        }
        let name = try SyncNames.settle(InputRules.name(fields.name, field: field), of: (self, gid, localId), among: .goals, identities: identities, &context)
        var row = try GoalRow(
            id: localId ?? (try SyncNames.freeId(idHint, table: "goals", db)), name: name, targetMinor: target.minorUnits, currency: currency.code,
            deadline: deadline, walletId: walletId, categoryId: categoryId, autoFund: rule, createdAt: fields.createdAt, updatedAt: fields.updatedAt)
        if localId != nil { try row.update(db) } else { try row.insert(db) }
        let id = row.id ?? 0
        let saved = try GoalHandlers.fetch(db, id: id, field: field, today: Timestamp.today(at: context.date))
        try context.record(localId == nil ? .goalCreated : .goalUpdated, id: String(id), data: saved)
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "goal \(localId) was deleted on another device, but goals are not deleted: it stays here"
    }
}
