import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `ledger.restore.begin` and `ledger.restore.finish`: an export written back with its ids and
/// times (the four steps are described on `LedgerRestoreBeginRequest`).
///
/// Records are checked for what the store's own invariants need (ids, names, currencies, amounts,
/// dates, times, parents, schedules), since the file may have been edited by hand, and the
/// database's constraints catch the rest; either way nothing is written unless all of it is.
/// Rules a create applies to new input only (a deadline in the future, a template's amount) are
/// not applied again to records that were valid when they were made.
enum RestoreHandlers {
    /// The rate profiles every new ledger starts with (migration v2); an export's profiles
    /// with these ids replace them.
    static let builtInRateProfiles: ClosedRange<Int64> = 1...3

    static func begin(_ request: LedgerRestoreBeginRequest, _ context: inout WriteContext) throws -> LedgerRestoreBeginReply {
        let db = context.db
        try requireEmpty(db, [("wallets", hasRows(WalletRow.self)), ("categories", hasRows(CategoryRow.self)), ("tags", hasRows(TagRow.self)),
                              ("transactions", TransactionRow.any), ("alerts", hasRows(AlertRow.self)), ("conversions", hasRows(ConversionRow.self)),
                              ("budgets", hasRows(BudgetRow.self)), ("goals", hasRows(GoalRow.self)), ("recurring transactions", hasRows(RecurringRow.self))])
        if let custom = try RateProfileRow.nameAbove(db, id: builtInRateProfiles.upperBound) {
            throw LedgerError.conflict("this ledger already has the rate profile '\(custom)': a restore goes into a new, empty ledger (another home)")
        }
        for (index, wallet) in request.wallets.enumerated() { try insert(wallet, field: .body("wallets")[index], &context) }
        try insertCategories(request.categories, &context)
        for (index, tag) in request.tags.enumerated() {
            var row = TagRow(id: try InputRules.positiveId(tag.id, field: .body("tags")[index].member("id")), name: try InputRules.name(tag.name, field: .body("tags")[index].member("name")))
            try row.insert(db)
            try context.record(.tagCreated, id: String(tag.id), data: row.record)
        }
        for (index, profile) in request.rateProfiles.enumerated() { try restore(profile, field: .body("rateProfiles")[index], &context) }
        for (index, alert) in request.alerts.enumerated() {
            let field = FieldPath.body("alerts")[index]
            var row = try AlertRow(
                id: try InputRules.positiveId(alert.id, field: field.member("id")), kind: alert.kind.rawValue, key: try InputRules.name(alert.key, field: field.member("key")),
                subject: alert.subject, message: alert.message, period: alert.period, threshold: alert.threshold, data: alert.data,
                raisedAt: try InputRules.timestamp(alert.raisedAt, field: field.member("raisedAt")))
            try row.insert(db)
        }
        for (index, conversion) in request.conversions.enumerated() {
            let field = FieldPath.body("conversions")[index]
            var row = try ConversionRow(
                id: try InputRules.positiveId(conversion.id, field: field.member("id")), amount: conversion.amount,
                fromCurrency: try InputRules.currency(conversion.from, field: field.member("from")).code, result: conversion.result,
                toCurrency: try InputRules.currency(conversion.to, field: field.member("to")).code, snapshot: conversion.snapshot, warning: conversion.warning,
                createdAt: try InputRules.timestamp(conversion.createdAt, field: field.member("createdAt")))
            try row.insert(db)
        }
        let reply = LedgerRestoreBeginReply(wallets: request.wallets.count, categories: request.categories.count, tags: request.tags.count,
                                            rateProfiles: request.rateProfiles.count, alerts: request.alerts.count, conversions: request.conversions.count)
        try context.record(.ledgerRestored, id: "ledger", data: reply)
        return reply
    }

    static func finish(_ request: LedgerRestoreFinishRequest, _ context: inout WriteContext) throws -> LedgerRestoreFinishReply {
        let db = context.db
        try requireEmpty(db, [("budgets", hasRows(BudgetRow.self)), ("goals", hasRows(GoalRow.self)), ("recurring transactions", hasRows(RecurringRow.self))])
        for (index, budget) in request.budgets.enumerated() { try insert(budget, field: .body("budgets")[index], &context) }
        var contributions = 0
        for (index, goal) in request.goals.enumerated() {
            try insert(goal, field: .body("goals")[index], &context)
            contributions += goal.contributions.count
        }
        for (index, template) in request.recurring.enumerated() { try insert(template, field: .body("recurring")[index], &context) }
        try reserveIdsNamedByAlerts(db)
        for (index, id) in request.archivedWalletIds.enumerated() {
            let wallet = try WalletRow.find(db, id: id, field: .body("archivedWalletIds")[index]).record
            guard !wallet.archived else { continue }
            try db.execute(cached: "UPDATE wallets SET archived = 1 WHERE id = ?", arguments: [id])
            try context.record(.walletArchived, id: String(id), data: try WalletRow.find(db, id: id, field: .body("archivedWalletIds")[index]).record)
        }
        return LedgerRestoreFinishReply(budgets: request.budgets.count, goals: request.goals.count, contributions: contributions,
                                        recurring: request.recurring.count, archivedWallets: request.archivedWalletIds.count)
    }

    // MARK: Begin

    /// Active for now: an archived wallet takes no transactions, and its own come after this.
    private static func insert(_ wallet: WalletRecord, field: FieldPath, _ context: inout WriteContext) throws {
        let currency = try InputRules.currency(wallet.currency, field: field.member("currency"))
        let starting = try InputRules.amount(wallet.startingBalance, currency: currency, field: field.member("startingBalance"))
        var row = WalletRow(
            id: try InputRules.positiveId(wallet.id, field: field.member("id")), name: try InputRules.name(wallet.name, field: field.member("name")),
            icon: try InputRules.optionalText(wallet.icon, field: field.member("icon"), limit: 32), currency: currency.code, type: wallet.type.rawValue,
            startingBalanceMinor: starting.minorUnits, balanceMinor: starting.minorUnits,
            institution: try InputRules.optionalText(wallet.institution, field: field.member("institution"), limit: 100),
            sortOrder: try InputRules.sortOrder(wallet.sortOrder, field: field.member("sortOrder")) ?? 0, includeInNetWorth: wallet.includeInNetWorth,
            archived: false, createdAt: try InputRules.timestamp(wallet.createdAt, field: field.member("createdAt")),
            updatedAt: try InputRules.timestamp(wallet.updatedAt, field: field.member("updatedAt")))
        try row.insert(context.db)
        try context.record(.walletCreated, id: String(wallet.id), data: row.record)
    }

    /// Parents first, whatever the order in the file, so each parent exists when its children
    /// name it; a parent the file does not have is refused.
    private static func insertCategories(_ categories: [CategoryRecord], _ context: inout WriteContext) throws {
        let indices = Dictionary(categories.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var written = Set<Int64>()
        var remaining = categories
        while !remaining.isEmpty {
            let ready = remaining.filter { $0.parentId.map(written.contains) ?? true }
            guard !ready.isEmpty else {
                let orphan = remaining[0]
                let field = FieldPath.body("categories")[indices[orphan.id] ?? 0].member("parentId")
                throw LedgerError.invalid("category '\(orphan.name)' names parent \(orphan.parentId ?? 0), which the restore does not have", field: field)
            }
            for category in ready {
                let field = FieldPath.body("categories")[indices[category.id] ?? 0]
                let name = try InputRules.name(category.name, field: field.member("name"))
                guard !name.contains("/") else { throw LedgerError.invalid("\(field).name must not contain '/'", field: field.member("name")) }
                var row = CategoryRow(
                    id: try InputRules.positiveId(category.id, field: field.member("id")), name: name, kind: category.kind.rawValue, parentId: category.parentId,
                    icon: try InputRules.optionalText(category.icon, field: field.member("icon"), limit: 32), color: try InputRules.color(category.color, field: field.member("color")),
                    budgetingEnabled: category.budgetingEnabled, sortOrder: try InputRules.sortOrder(category.sortOrder, field: field.member("sortOrder")) ?? 0,
                    createdAt: context.now, updatedAt: context.now)
                try row.insert(context.db)
                written.insert(category.id)
            }
            remaining.removeAll { written.contains($0.id) }
        }
        let tree = try CategoryRow.tree(context.db)
        for category in tree { try context.record(.categoryCreated, id: String(category.id), data: category) }
    }

    /// A built-in profile is replaced by the export's; any other is added.
    private static func restore(_ profile: RateProfileRecord, field: FieldPath, _ context: inout WriteContext) throws {
        let db = context.db
        let id = try InputRules.positiveId(profile.id, field: field.member("id"))
        let name = try InputRules.name(profile.name, field: field.member("name"))
        if let other = try RateProfileRow.id(named: name, except: id, db) {
            throw LedgerError.conflict("rate profile '\(name)' is \(id) in the export but \(other) here", field: field.member("name"))
        }
        let existing = try RateProfileRow.fetchOne(db, key: id)
        var row = RateProfileRow(
            id: id, name: name, type: profile.type, primarySource: try InputRules.optionalText(profile.primarySource, field: field.member("primarySource"), limit: 50),
            notes: try InputRules.optionalText(profile.notes, field: field.member("notes"), limit: 1_000), isDefault: profile.isDefault,
            lastUpdated: try profile.lastUpdated.map { try InputRules.timestamp($0, field: field.member("lastUpdated")) },
            createdAt: existing?.createdAt ?? context.now)
        if existing != nil { try row.update(db) } else { try row.insert(db) }
        try context.record(existing != nil ? .rateProfileUpdated : .rateProfileCreated, id: String(id), data: row.record)
    }

    // MARK: Finish

    /// The budget with its whole limit history (an export from before histories has one limit,
    /// from `startMonth` on).
    private static func insert(_ budget: BudgetRecord, field: FieldPath, _ context: inout WriteContext) throws {
        let db = context.db
        let startMonth = try BudgetHandlers.month(budget.startMonth, field: field.member("startMonth"))
        let history = budget.limits ?? [BudgetLimit(fromMonth: startMonth, limit: budget.limit, currency: budget.currency)]
        guard history.first?.fromMonth == startMonth else {
            throw LedgerError.invalid("\(field).limits must start at startMonth \(startMonth)", field: field.member("limits"))
        }
        var limits: [(month: String, money: Money)] = []
        for (index, entry) in history.enumerated() {
            let part = budget.limits == nil ? field : field.member("limits")[index]
            let month = try BudgetHandlers.month(entry.fromMonth, field: part.member("fromMonth"))
            if let previous = limits.last, previous.month >= month {
                throw LedgerError.invalid("\(part).fromMonth \(month) is not after the limit before it (\(previous.month))", field: part.member("fromMonth"))
            }
            let currency = try InputRules.currency(entry.currency, field: part.member("currency"))
            limits.append((month, try InputRules.positiveAmount(entry.limit, currency: currency, field: part.member("limit"))))
        }
        try CategoryRow.requireExists(db, id: budget.categoryId, field: field.member("categoryId"))
        var row = try BudgetRow(
            id: try InputRules.positiveId(budget.id, field: field.member("id")), categoryId: budget.categoryId, limitMinor: limits[0].money.minorUnits,
            currency: limits[0].money.currency.code, thresholds: try BudgetHandlers.validThresholds(budget.thresholds), carryOver: budget.carryOver,
            startMonth: startMonth, createdAt: try InputRules.timestamp(budget.createdAt, field: field.member("createdAt")),
            updatedAt: try InputRules.timestamp(budget.updatedAt, field: field.member("updatedAt")))
        try row.insert(db)
        for limit in limits {
            try BudgetLimitRow(budgetId: budget.id, fromMonth: limit.month, limitMinor: limit.money.minorUnits, currency: limit.money.currency.code).insert(db)
        }
        try context.record(.budgetCreated, id: String(budget.id), data: try BudgetHandlers.fetch(db, id: budget.id, field: field.member("id"), currentMonth: String(Timestamp.today(at: context.date).prefix(7))))
    }

    /// The goal as it was (its deadline may have passed since), then its contributions, which
    /// keep the transfers and auto-fund months they had.
    private static func insert(_ restore: GoalRestore, field: FieldPath, _ context: inout WriteContext) throws {
        let db = context.db
        let goal = restore.goal
        let currency = try InputRules.currency(goal.currency, field: field.member("goal").member("currency"))
        let target = try InputRules.positiveAmount(goal.target, currency: currency, field: field.member("goal").member("target"))
        if let deadline = goal.deadline { _ = try InputRules.date(deadline, field: field.member("goal").member("deadline")) }
        if let walletId = goal.walletId { _ = try WalletRow.find(db, id: walletId, field: field.member("goal").member("walletId")).record }
        if let categoryId = goal.categoryId { try CategoryRow.requireExists(db, id: categoryId, field: field.member("goal").member("categoryId")) }
        var row = try GoalRow(
            id: try InputRules.positiveId(goal.id, field: field.member("goal").member("id")), name: try InputRules.name(goal.name, field: field.member("goal").member("name")),
            targetMinor: target.minorUnits, currency: currency.code, deadline: goal.deadline, walletId: goal.walletId, categoryId: goal.categoryId, autoFund: goal.autoFund,
            createdAt: try InputRules.timestamp(goal.createdAt, field: field.member("goal").member("createdAt")),
            updatedAt: try InputRules.timestamp(goal.updatedAt, field: field.member("goal").member("updatedAt")))
        try row.insert(db)
        for (index, contribution) in restore.contributions.enumerated() {
            let part = field.member("contributions")[index]
            guard contribution.goalId == goal.id else {
                throw LedgerError.invalid("\(part).goalId is \(contribution.goalId), not the goal's id \(goal.id)", field: part.member("goalId"))
            }
            let amount = try InputRules.positiveAmount(contribution.amount, currency: currency, field: part.member("amount"))
            if let month = contribution.autoFundMonth { _ = try BudgetHandlers.month(month, field: part.member("autoFundMonth")) }
            var row = GoalContributionRow(
                id: try InputRules.positiveId(contribution.id, field: part.member("id")), goalId: goal.id, amountMinor: amount.minorUnits,
                date: try InputRules.date(contribution.date, field: part.member("date")).description, transactionId: contribution.transactionId,
                autoFundMonth: contribution.autoFundMonth, createdAt: try InputRules.timestamp(contribution.createdAt, field: part.member("createdAt")),
                withdrawnAt: try contribution.withdrawnAt.map { try InputRules.timestamp($0, field: part.member("withdrawnAt")) })
            try row.insert(db)
        }
        try context.record(.goalCreated, id: String(goal.id), data: try GoalHandlers.fetch(db, id: goal.id, field: field.member("goal").member("id"), today: Timestamp.today(at: context.date)))
    }

    /// The template with the occurrence it had reached: `nextRun` is found again in its schedule
    /// (the store counts occurrences), so nothing already posted is posted again.
    private static func insert(_ template: RecurringRecord, field: FieldPath, _ context: inout WriteContext) throws {
        let db = context.db
        let start = try InputRules.date(template.startDate, field: field.member("startDate"))
        if let end = template.endDate { _ = try InputRules.date(end, field: field.member("endDate")) }
        guard (1...1_000).contains(template.every) else { throw LedgerError.invalid("\(field).every must be 1 to 1000, got \(template.every)", field: field.member("every")) }
        _ = try WalletRow.find(db, id: template.template.walletId, field: field.member("template").member("walletId")).record
        if let categoryId = template.template.categoryId { try CategoryRow.requireExists(db, id: categoryId, field: field.member("template").member("categoryId")) }
        var index = 0
        if let nextRun = template.nextRun {
            while let date = RecurringHandlers.occurrence(template, index: index), date < nextRun, index < maximumOccurrences { index += 1 }
            guard RecurringHandlers.occurrence(template, index: index) == nextRun else {
                throw LedgerError.invalid("\(field).nextRun \(nextRun) is not an occurrence of the schedule from \(start)", field: field.member("nextRun"))
            }
        } else {
            // Finished: past its last occurrence.
            while RecurringHandlers.occurrence(template, index: index) != nil, index < maximumOccurrences { index += 1 }
        }
        var row = try RecurringRow(
            id: try InputRules.positiveId(template.id, field: field.member("id")), name: try InputRules.name(template.name, field: field.member("name")),
            template: template.template, frequency: template.frequency, every: template.every, startDate: start.description, endDate: template.endDate,
            nextIndex: index, nextRun: template.nextRun, mode: template.mode, paused: template.paused,
            createdAt: try InputRules.timestamp(template.createdAt, field: field.member("createdAt")), updatedAt: try InputRules.timestamp(template.updatedAt, field: field.member("updatedAt")))
        try row.insert(db)
        try context.record(.recurringCreated, id: String(template.id), data: row.record)
    }

    /// Daily for a thousand years: a schedule longer than this is not a real one.
    private static let maximumOccurrences = 366_000

    /// A deleted budget's, goal's or template's id lives on in the alert log's keys
    /// (`budget:<id>:…`, `goal:<id>:…`, `recurring:<id>:…`). AUTOINCREMENT never hands such an
    /// id out again, but after a restore it only knows the ids restored: it is moved past the
    /// ids the keys name, so a new budget cannot inherit an old one's alerts.
    private static func reserveIdsNamedByAlerts(_ db: Database) throws {
        for (table, prefix) in [(BudgetRow.databaseTableName, "budget:"), (GoalRow.databaseTableName, "goal:"), (RecurringRow.databaseTableName, "recurring:")] {
            guard let highest = try AlertRow.highestIdInKeys(prefix: prefix, db), highest > 0 else { continue }
            try db.execute(cached: "INSERT INTO sqlite_sequence (name, seq) SELECT ?, 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)", arguments: [table, table])
            try db.execute(cached: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", arguments: [highest, table])
        }
    }

    /// `tables`: (what a table holds, for the message; whether it has a row, its owner's check).
    private static func requireEmpty(_ db: Database, _ tables: [(String, (Database) throws -> Bool)]) throws {
        for (what, hasRows) in tables where try hasRows(db) {
            throw LedgerError.conflict("this ledger already has \(what): a restore goes into a new, empty ledger (another home)")
        }
    }

    /// Whether the owner's table has a row (`SELECT EXISTS`, as D458's one check per owner).
    private static func hasRows<Owner: TableRecord>(_ owner: Owner.Type) -> (Database) throws -> Bool {
        { db in try !Owner.all().isEmpty(db) }
    }

}
