/// Restoring `ledgerly export json` into a new ledger keeps every id, so everything that points
/// at a wallet, category, transaction, budget, goal or template (transfers, splits, goal
/// contributions, the alert log's keys) still points at the same thing. It takes four steps,
/// in this order (docs/reports-import-export.md):
///
/// 1. `ledger.restore.begin`: the structure (wallets, categories, tags, rate profiles) and the
///    histories (alert log, conversions), into a ledger that has none of them yet.
/// 2. `rates.restore`, in batches: the rate history.
/// 3. `tx.import`, in batches, each item with `kept.id`: the transactions, under their ids.
/// 4. `ledger.restore.finish`: what acts on transactions (budgets, goals and their contributions,
///    recurring templates) and the wallets' archived flags. Last, so that nothing the alerts
///    service does while transactions arrive (post a template, fund a goal, cross a budget)
///    runs on a half-restored ledger or takes an id a restored transaction needs.
///
/// `ledger.restore.begin`: writes the records with their ids and times in one SQL transaction.
/// Refused (`conflict`) unless the ledger has no wallets, categories, tags, transactions, alerts
/// or conversions, and no rate profiles but the three built in (which the export's replace).
public struct LedgerRestoreBeginRequest: WriteRequest, Hashable {
    public typealias Reply = LedgerRestoreBeginReply
    public static let messageType: MessageType = "ledger.restore.begin"
    /// Archived ones too; they are archived by `ledger.restore.finish`, after their transactions.
    public var wallets: [WalletRecord]
    /// Parents before or after children: any order.
    public var categories: [CategoryRecord]
    public var tags: [TagRecord]
    public var rateProfiles: [RateProfileRecord]
    public var alerts: [AlertRecord]
    public var conversions: [ConversionRecord]

    public init(wallets: [WalletRecord], categories: [CategoryRecord], tags: [TagRecord], rateProfiles: [RateProfileRecord], alerts: [AlertRecord], conversions: [ConversionRecord]) {
        self.wallets = wallets
        self.categories = categories
        self.tags = tags
        self.rateProfiles = rateProfiles
        self.alerts = alerts
        self.conversions = conversions
    }
}

/// What `ledger.restore.begin` wrote; also the data of its `ledger.restored` event.
public struct LedgerRestoreBeginReply: Codable, Hashable, Sendable {
    public var wallets: Int
    public var categories: Int
    public var tags: Int
    public var rateProfiles: Int
    public var alerts: Int
    public var conversions: Int

    public init(wallets: Int, categories: Int, tags: Int, rateProfiles: Int, alerts: Int, conversions: Int) {
        self.wallets = wallets
        self.categories = categories
        self.tags = tags
        self.rateProfiles = rateProfiles
        self.alerts = alerts
        self.conversions = conversions
    }
}

/// A goal as exported: the record and every contribution to it.
public struct GoalRestore: Codable, Hashable, Sendable {
    public var goal: GoalRecord
    public var contributions: [GoalContributionRecord]

    public init(goal: GoalRecord, contributions: [GoalContributionRecord]) {
        self.goal = goal
        self.contributions = contributions
    }
}

/// `ledger.restore.finish`: budgets, goals with their contributions, and recurring templates with
/// their ids, times, next run and paused state; then archives the wallets the export had
/// archived. One SQL transaction; publishes the usual `budget.created`, `goal.created`,
/// `recurring.created` and `wallet.archived` events, so the alerts service takes them up as it
/// would new ones (the restored alert log's keys stop it raising what was raised before).
/// Refused (`conflict`) when the ledger already has budgets, goals or recurring templates.
public struct LedgerRestoreFinishRequest: WriteRequest, Hashable {
    public typealias Reply = LedgerRestoreFinishReply
    public static let messageType: MessageType = "ledger.restore.finish"
    public var budgets: [BudgetRecord]
    public var goals: [GoalRestore]
    public var recurring: [RecurringRecord]
    public var archivedWalletIds: [Int64]

    public init(budgets: [BudgetRecord], goals: [GoalRestore], recurring: [RecurringRecord], archivedWalletIds: [Int64]) {
        self.budgets = budgets
        self.goals = goals
        self.recurring = recurring
        self.archivedWalletIds = archivedWalletIds
    }
}

public struct LedgerRestoreFinishReply: Codable, Hashable, Sendable {
    public var budgets: Int
    public var goals: Int
    public var contributions: Int
    public var recurring: Int
    public var archivedWallets: Int

    public init(budgets: Int, goals: Int, contributions: Int, recurring: Int, archivedWallets: Int) {
        self.budgets = budgets
        self.goals = goals
        self.contributions = contributions
        self.recurring = recurring
        self.archivedWallets = archivedWallets
    }
}

/// `ledger.backup`: the store writes a consistent copy of its database (SQLite's online backup,
/// while it keeps serving) to `path`, a file that must not exist yet, and checks it.
public struct LedgerBackupRequest: ReadRequest, Hashable {
    public typealias Reply = LedgerBackupReply
    public static let messageType: MessageType = "ledger.backup"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    /// Absolute path of the file to write, on the store's machine; its folder must exist.
    public var path: String
    public init(path: String) { self.path = path }
}

public struct LedgerBackupReply: Codable, Hashable, Sendable {
    public var path: String
    public var bytes: Int64
    /// The change log's last seq in the copy: every write acknowledged before this reply is in it.
    public var lastSeq: Int64
    public var epoch: String
    /// `PRAGMA integrity_check` of the copy: always "ok" (a copy that fails it is removed and the
    /// request fails).
    public var integrity: String
    public init(path: String, bytes: Int64, lastSeq: Int64, epoch: String, integrity: String) {
        self.path = path
        self.bytes = bytes
        self.lastSeq = lastSeq
        self.epoch = epoch
        self.integrity = integrity
    }
}
