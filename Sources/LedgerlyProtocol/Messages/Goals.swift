/// A rule that moves money into a goal on a schedule (run by `ledgerly-alerts`, once per date).
public struct AutoFundRule: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, CaseIterable, Sendable {
        /// `amount` each time.
        case fixed
        /// `percent` of the previous calendar month's income (in the base currency).
        case percentOfIncome
    }

    public var kind: Kind
    /// Decimal string in the goal's currency (fixed).
    public var amount: String?
    /// Decimal string, e.g. "10" for 10 % (percentOfIncome).
    public var percent: String?
    /// Day of the month it runs on, 1...28.
    public var dayOfMonth: Int
    /// The wallet the money comes from (moved into the goal's wallet when it has one).
    public var fromWalletId: Int64?

    public init(kind: Kind, amount: String? = nil, percent: String? = nil, dayOfMonth: Int, fromWalletId: Int64? = nil) {
        self.kind = kind
        self.amount = amount
        self.percent = percent
        self.dayOfMonth = dayOfMonth
        self.fromWalletId = fromWalletId
    }
}

public enum GoalStatus: String, Codable, CaseIterable, Sendable {
    case active, achieved
}

/// A saving goal: an amount to reach by a deadline. Its current amount is what was put towards
/// it (`goal.fund`), plus, when it is linked to a wallet, nothing else: the contributions are the
/// money moved into that wallet for the goal.
public struct GoalRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var target: String
    public var currency: String
    /// "YYYY-MM-DD", or nil for no deadline.
    public var deadline: String?
    public var walletId: Int64?
    public var categoryId: Int64?
    public var current: String
    public var status: GoalStatus
    public var autoFund: AutoFundRule?
    /// `current` as a percentage of `target`, one decimal.
    public var percent: String
    /// What to put in each month from now to meet the deadline (nil without a deadline or once reached).
    public var monthlyNeeded: String?
    /// Whether `current` is below the straight line from the start to the target at the deadline.
    public var behindPace: Bool
    public var createdAt: String
    public var updatedAt: String

    public init(id: Int64, name: String, target: String, currency: String, deadline: String?, walletId: Int64?, categoryId: Int64?, current: String, status: GoalStatus, autoFund: AutoFundRule?, percent: String, monthlyNeeded: String?, behindPace: Bool, createdAt: String, updatedAt: String) {
        self.id = id
        self.name = name
        self.target = target
        self.currency = currency
        self.deadline = deadline
        self.walletId = walletId
        self.categoryId = categoryId
        self.current = current
        self.status = status
        self.autoFund = autoFund
        self.percent = percent
        self.monthlyNeeded = monthlyNeeded
        self.behindPace = behindPace
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `goal.create`
public struct GoalCreateRequest: WriteRequest, Hashable {
    public typealias Reply = GoalRecord
    public static let messageType: MessageType = "goal.create"
    public var name: String
    public var target: String
    /// Defaults to the linked wallet's currency, else the base currency.
    public var currency: String?
    public var deadline: String?
    public var walletId: Int64?
    public var categoryId: Int64?
    public var autoFund: AutoFundRule?

    public init(name: String, target: String, currency: String? = nil, deadline: String? = nil, walletId: Int64? = nil, categoryId: Int64? = nil, autoFund: AutoFundRule? = nil) {
        self.name = name
        self.target = target
        self.currency = currency
        self.deadline = deadline
        self.walletId = walletId
        self.categoryId = categoryId
        self.autoFund = autoFund
    }
}

/// `goal.list`
public struct GoalListRequest: ReadRequest, Hashable {
    public typealias Reply = GoalListReply
    public static let messageType: MessageType = "goal.list"
    public init() {}
}

public struct GoalListReply: Codable, Hashable, Sendable {
    public var goals: [GoalRecord]
    public init(goals: [GoalRecord]) { self.goals = goals }
}

/// `goal.get`
public struct GoalGetRequest: ReadRequest, Hashable {
    public typealias Reply = GoalRecord
    public static let messageType: MessageType = "goal.get"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

/// `goal.fund`: puts money towards a goal. With `fromWalletId` and a goal linked to a wallet, the
/// money is also moved (a transfer into the goal's wallet); otherwise it is recorded against the goal.
public struct GoalFundRequest: WriteRequest, Hashable {
    public typealias Reply = GoalRecord
    public static let messageType: MessageType = "goal.fund"
    public var id: Int64
    /// Positive decimal string in the goal's currency.
    public var amount: String
    public var fromWalletId: Int64?
    /// "YYYY-MM-DD", default today.
    public var date: String?

    public init(id: Int64, amount: String, fromWalletId: Int64? = nil, date: String? = nil) {
        self.id = id
        self.amount = amount
        self.fromWalletId = fromWalletId
        self.date = date
    }
}

/// `goal.autofund` (sent by `ledgerly-alerts` on the rule's day, with the key
/// `goal:<id>:autofund:<YYYY-MM>`): funds the goal by its auto-fund rule for that month — the
/// fixed amount, or the percentage of the previous month's income — once.
public struct GoalAutoFundRequest: WriteRequest, Hashable {
    public typealias Reply = GoalRecord
    public static let messageType: MessageType = "goal.autofund"
    public var id: Int64
    /// "YYYY-MM": the month being funded.
    public var month: String

    public init(id: Int64, month: String) {
        self.id = id
        self.month = month
    }
}

/// One sum put towards a goal: by hand (`goal.fund`) or by its auto-fund rule.
public struct GoalContributionRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var goalId: Int64
    /// Positive decimal string in the goal's currency.
    public var amount: String
    /// "YYYY-MM-DD".
    public var date: String
    /// The outgoing leg of the transfer that moved the money, when it was moved.
    public var transactionId: Int64?
    /// "YYYY-MM": the month an auto-fund rule funded (at most one contribution per month).
    public var autoFundMonth: String?
    public var createdAt: String
    /// When the transfer that moved the money was deleted: the contribution no longer counts
    /// towards the goal, but stays in its history (and an auto-fund month stays taken, so the
    /// alerts service does not move the money a second time).
    public var withdrawnAt: String?

    public init(id: Int64, goalId: Int64, amount: String, date: String, transactionId: Int64?, autoFundMonth: String?, createdAt: String, withdrawnAt: String? = nil) {
        self.id = id
        self.goalId = goalId
        self.amount = amount
        self.date = date
        self.transactionId = transactionId
        self.autoFundMonth = autoFundMonth
        self.createdAt = createdAt
        self.withdrawnAt = withdrawnAt
    }
}

/// `goal.contributions`: what was put towards a goal, oldest first.
public struct GoalContributionsRequest: ReadRequest, Hashable {
    public typealias Reply = GoalContributionsReply
    public static let messageType: MessageType = "goal.contributions"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

public struct GoalContributionsReply: Codable, Hashable, Sendable {
    public var goalId: Int64
    public var contributions: [GoalContributionRecord]
    public init(goalId: Int64, contributions: [GoalContributionRecord]) {
        self.goalId = goalId
        self.contributions = contributions
    }
}
