import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `goal.create|list|get|fund|autofund`. A goal's current amount is the sum of what was put
/// towards it; its progress, the monthly amount still needed and whether it is behind pace are
/// computed on every read from that sum, the target, the deadline and today.
enum GoalHandlers {
    static func fetch(_ db: Database, id: Int64, field: FieldPath, today: String) throws -> GoalRecord {
        guard let row = try GoalRow.find(db, id: id) else {
            throw LedgerError.notFound("there is no goal \(id); see `ledgerly goal list`", field: field)
        }
        return try record(db, row, today: today)
    }

    /// The goal as the protocol sends it: its row, plus its progress and pace computed from the
    /// contributions that count and today.
    static func record(_ db: Database, _ goal: GoalRow, today: String) throws -> GoalRecord {
        let id = goal.id ?? 0
        let currency = goal.currency
        let target = goal.targetMinor
        let current = try GoalContributionRow.countingSum(db, goalId: id)
        let deadline = goal.deadline
        let created = String(goal.createdAt.prefix(10))
        var monthlyNeeded: String?
        var behind = false
        if let deadline, current < target {
            let monthsLeft = max(1, months(from: today, to: deadline))
            let remaining = Int128(target - current)
            monthlyNeeded = InputRules.format(Int64((remaining + Int128(monthsLeft) - 1) / Int128(monthsLeft)), currency)
            // Behind when what is saved is below the straight line from the start to the target,
            // counted in whole months (a goal is not behind on its second day).
            let total = max(1, months(from: created, to: deadline))
            let elapsed = min(today > created ? months(from: created, to: today) : 0, total)
            behind = Int128(current) * Int128(total) < Int128(target) * Int128(elapsed)
        }
        return GoalRecord(
            id: id, name: goal.name, target: InputRules.format(target, currency), currency: currency, deadline: deadline,
            walletId: goal.walletId, categoryId: goal.categoryId, current: InputRules.format(current, currency),
            status: current >= target ? .achieved : .active, autoFund: goal.autoFundRule, percent: Percentage.oneDecimal(current, of: target),
            monthlyNeeded: monthlyNeeded, behindPace: behind, createdAt: goal.createdAt, updatedAt: goal.updatedAt)
    }

    /// Whole months from one day to another (Nov 21 → Sep 21 is 10, → Sep 20 is 9); 0 when
    /// `to` is not after `from`.
    static func months(from: String, to: String) -> Int {
        guard let start = LedgerDate(from), let end = LedgerDate(to), end > start else { return 0 }
        var count = (end.year - start.year) * 12 + end.month - start.month
        if end.day < start.day { count -= 1 }
        return max(0, count)
    }

    static func create(_ request: GoalCreateRequest, _ context: inout WriteContext) throws -> GoalRecord {
        let db = context.db
        let today = Timestamp.today(at: context.date)
        let name = try InputRules.name(request.name, field: .body("name"))
        if try GoalRow.id(named: name, db) != nil {
            throw LedgerError.conflict("a goal named '\(name)' already exists", field: .body("name"))
        }
        let wallet = try request.walletId.map { try WalletRow.active(db, id: $0, field: .body("walletId")).record }
        let base = try SettingsHandlers.baseCurrency(db)
        guard let code = request.currency ?? wallet?.currency ?? base else {
            throw LedgerError.invalid("body.currency is required until a base currency is set", field: .body("currency"))
        }
        let currency = try InputRules.currency(code, field: .body("currency"))
        if let wallet, wallet.currency != currency.code {
            throw LedgerError.invalid("the goal is in \(currency.code) but wallet '\(wallet.name)' is in \(wallet.currency): a goal's wallet holds its currency", field: .body("walletId"))
        }
        let target = try InputRules.positiveAmount(request.target, currency: currency, field: .body("target"))
        if let deadline = request.deadline {
            guard try InputRules.date(deadline, field: .body("deadline")).description > today else {
                throw LedgerError.invalid("body.deadline \(deadline) is not in the future", field: .body("deadline"))
            }
        }
        if let categoryId = request.categoryId { try CategoryRow.requireExists(db, id: categoryId, field: .body("categoryId")) }
        let rule = try request.autoFund.map { try validRule($0, currency: currency, db: db) }
        if rule?.fromWalletId != nil, wallet == nil {
            throw LedgerError.invalid("an auto-fund source wallet needs the goal to have a wallet to move money into (body.walletId)", field: .body("autoFund").member("fromWalletId"))
        }
        var row = try GoalRow(name: name, targetMinor: target.minorUnits, currency: currency.code, deadline: request.deadline, walletId: wallet?.id,
                              categoryId: request.categoryId, autoFund: rule, createdAt: context.now, updatedAt: context.now)
        try row.insert(db)
        let created = try record(db, row, today: today)
        try context.record(.goalCreated, id: String(created.id), data: created)
        return created
    }

    private static func validRule(_ rule: AutoFundRule, currency: Currency, db: Database) throws -> AutoFundRule {
        guard (1...28).contains(rule.dayOfMonth) else {
            throw LedgerError.invalid("body.autoFund.dayOfMonth must be 1 to 28, got \(rule.dayOfMonth)", field: .body("autoFund").member("dayOfMonth"))
        }
        switch rule.kind {
        case .fixed:
            guard let amount = rule.amount else { throw LedgerError.invalid("a fixed auto-fund rule needs body.autoFund.amount", field: .body("autoFund").member("amount")) }
            _ = try InputRules.positiveAmount(amount, currency: currency, field: .body("autoFund").member("amount"))
        case .percentOfIncome:
            guard let text = rule.percent, text.wholeMatch(of: /[0-9]{1,3}(\.[0-9]{1,4})?/) != nil, let percent = Decimal(string: text), percent > 0, percent <= 100 else {
                throw LedgerError.invalid("a percent-of-income rule needs body.autoFund.percent, a number above 0 and at most 100", field: .body("autoFund").member("percent"))
            }
        }
        if let walletId = rule.fromWalletId { _ = try WalletRow.active(db, id: walletId, field: .body("autoFund").member("fromWalletId")).record }
        return rule
    }

    static func list(_ request: GoalListRequest, _ context: ReadContext) throws -> GoalListReply {
        let db = context.db, today = context.today
        return GoalListReply(goals: try GoalRow.all(db).map { try record(db, $0, today: today) })
    }

    static func contributions(_ request: GoalContributionsRequest, _ db: Database) throws -> GoalContributionsReply {
        guard let currency = try GoalRow.currency(db, id: try InputRules.positiveId(request.id, field: .body("id"))) else {
            throw LedgerError.notFound("there is no goal \(request.id); see `ledgerly goal list`", field: .body("id"))
        }
        return GoalContributionsReply(goalId: request.id, contributions: try GoalContributionRow.all(db, goalId: request.id).map { $0.record(currency: currency) })
    }

    /// Called when transactions are deleted: the contributions whose money one of them moved stop
    /// counting (`withdrawn_at`), in the same SQL transaction, and each goal touched publishes
    /// `goal.updated`. A contribution is never left counting money that is gone (D76), nor
    /// naming a transaction that is gone (D307).
    static func withdrawContributions(movedBy transactionIds: [Int64], _ context: inout WriteContext) throws -> [GoalContributionRecord] {
        let db = context.db
        var withdrawn: [GoalContributionRecord] = []
        for transactionId in transactionIds {
            for (counting, currency) in try GoalContributionRow.counting(movedBy: transactionId, db) {
                var contribution = counting
                contribution.withdrawnAt = context.now
                // The reply names the transaction deleted; the row keeps no link to an id SQLite
                // may give to a new transaction (D307).
                withdrawn.append(contribution.record(currency: currency))
                contribution.transactionId = nil
                try contribution.update(db)
            }
        }
        let today = Timestamp.today(at: context.date)
        for goalId in Set(withdrawn.map(\.goalId)).sorted() {
            try GoalRow.touch(db, id: goalId, at: context.now)
            try context.record(.goalUpdated, id: String(goalId), data: try fetch(db, id: goalId, field: .body("id"), today: today))
        }
        return withdrawn
    }

    static func fund(_ request: GoalFundRequest, _ context: inout WriteContext) throws -> GoalRecord {
        let today = Timestamp.today(at: context.date)
        let goal = try fetch(context.db, id: request.id, field: .body("id"), today: today)
        let amount = try InputRules.positiveAmount(request.amount, currency: try InputRules.currency(goal.currency, field: .body("id")), field: .body("amount"))
        let date = try request.date.map { try InputRules.date($0, field: .body("date")).description } ?? today
        return try contribute(goal, amount: amount, fromWalletId: request.fromWalletId, date: date, &context)
    }

    /// The rule's amount for `month`: fixed, or the percentage of the previous month's income in
    /// the base currency (which must then be the goal's currency).
    static func autoFund(_ request: GoalAutoFundRequest, _ context: inout WriteContext) throws -> GoalRecord {
        let db = context.db
        let today = Timestamp.today(at: context.date)
        let goal = try fetch(db, id: request.id, field: .body("id"), today: today)
        let month = try BudgetHandlers.month(request.month, field: .body("month"))
        guard let rule = goal.autoFund else { throw LedgerError.conflict("goal '\(goal.name)' has no auto-fund rule", field: .body("id")) }
        guard month >= String(goal.createdAt.prefix(7)), month <= String(today.prefix(7)) else {
            throw LedgerError.invalid("body.month \(month) is outside the goal's life (\(goal.createdAt.prefix(7)) to \(today.prefix(7)))", field: .body("month"))
        }
        // Once per month whatever the key (the unique index), and never past the target.
        let alreadyFunded = try GoalContributionRow.autoFunded(db, goalId: goal.id, month: month)
        if goal.status == .achieved || alreadyFunded { return goal }
        let currency = try InputRules.currency(goal.currency, field: .body("id"))
        let amount: Money
        switch rule.kind {
        case .fixed:
            amount = try InputRules.positiveAmount(rule.amount ?? "0", currency: currency, field: .body("id"))
        case .percentOfIncome:
            guard try SettingsHandlers.baseCurrency(db) == goal.currency else {
                throw LedgerError.invalid("a percent-of-income rule needs the goal in the base currency", field: .body("id"))
            }
            let previous = LedgerMonth.previous(month)
            // Income is income to an income category or to none; a refund (income to an expense
            // category) is less spending, not income.
            let income = try TransactionRow.baseIncome(db, from: "\(previous)-01", before: "\(month)-01")
            let percent = Decimal(string: rule.percent ?? "0") ?? 0
            var share = Decimal(income) * percent / 100
            var rounded = Decimal()
            NSDecimalRound(&rounded, &share, 0, .bankers)
            let minor = NSDecimalNumber(decimal: rounded).int64Value
            guard minor > 0 else { return goal }  // no income last month: nothing to move
            amount = Money(minorUnits: minor, currency: currency)
        }
        let day = "\(month)-\(rule.dayOfMonth < 10 ? "0" : "")\(rule.dayOfMonth)"
        // With sync on, the transfer gets the id every device gives this month's auto-fund; one
        // that arrived from another device (or was deleted there) is not made again.
        let synced = rule.fromWalletId == nil ? nil : try SyncOccurrence.autoFund(db, goalId: goal.id, month: month, now: context.date)
        if try synced?.isKnown() == true { return goal }
        return try contribute(goal, amount: amount, fromWalletId: rule.fromWalletId, date: day, autoFundMonth: month, occurrence: synced, &context)
    }

    private static func contribute(_ goal: GoalRecord, amount: Money, fromWalletId: Int64?, date: String, autoFundMonth: String? = nil,
                                   occurrence: SyncOccurrence? = nil, _ context: inout WriteContext) throws -> GoalRecord {
        let db = context.db
        var txId: Int64?
        if fromWalletId != nil, goal.walletId == nil {
            throw LedgerError.invalid("goal '\(goal.name)' has no wallet to move money into; fund it without a source wallet, or give the goal a wallet", field: .body("fromWalletId"))
        }
        if let fromWalletId, let goalWallet = goal.walletId {
            let source = try WalletRow.active(db, id: fromWalletId, field: .body("fromWalletId")).record
            guard source.currency == goal.currency else {
                throw LedgerError.invalid("wallet '\(source.name)' is in \(source.currency), the goal in \(goal.currency): move the money with `ledgerly tx transfer` and fund the goal without --from", field: .body("fromWalletId"))
            }
            let transfer = try TransactionHandlers.transfer(TransferCreateRequest(
                fromWalletId: source.id, toWalletId: goalWallet, amount: amount.decimalString, date: date, notes: "Goal: \(goal.name)"), &context)
            txId = transfer.outgoing.id
            try occurrence?.claim(localId: transfer.outgoing.id)
        }
        var contribution = GoalContributionRow(goalId: goal.id, amountMinor: amount.minorUnits, date: date, transactionId: txId,
                                               autoFundMonth: autoFundMonth, createdAt: context.now, withdrawnAt: nil)
        try contribution.insert(db)
        try GoalRow.touch(db, id: goal.id, at: context.now)
        let updated = try fetch(db, id: goal.id, field: .body("id"), today: Timestamp.today(at: context.date))
        try context.record(.goalUpdated, id: String(updated.id), data: updated)
        return updated
    }
}
