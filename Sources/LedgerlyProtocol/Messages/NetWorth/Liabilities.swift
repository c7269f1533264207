/// What kind of debt a liability is; it decides nothing in the arithmetic, only grouping.
public enum LiabilityType: String, Codable, CaseIterable, Sendable {
    case mortgage, loan, creditCard, other
}

/// How an entry of a liability's history changes its balance.
public enum LiabilityEntryKind: String, Codable, CaseIterable, Sendable {
    /// The balance is `amount` from this day (a statement, the opening balance).
    case balance
    /// A payment from a wallet lowers the balance by `amount`.
    case payment
}

/// One dated entry of a liability's balance history, never overwritten.
public struct LiabilityEntryRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var date: String
    public var kind: LiabilityEntryKind
    /// The balance set, or the amount paid; decimal string in the liability's currency.
    public var amount: String
    /// The balance after this entry (entries in order of day, then id).
    public var balanceAfter: String
    /// For a payment: the wallet it came from and its linked transaction.
    public var walletId: Int64?
    public var transactionId: Int64?
    public var notes: String?
    public var createdAt: String

    public init(id: Int64, date: String, kind: LiabilityEntryKind, amount: String, balanceAfter: String, walletId: Int64?, transactionId: Int64?, notes: String?,
                createdAt: String) {
        self.id = id
        self.date = date
        self.kind = kind
        self.amount = amount
        self.balanceAfter = balanceAfter
        self.walletId = walletId
        self.transactionId = transactionId
        self.notes = notes
        self.createdAt = createdAt
    }
}

/// A debt owed (a mortgage, a loan), with its balance history; it counts against net worth.
public struct LiabilityRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var liabilityType: LiabilityType
    public var currency: String
    /// The balance after the latest entry (by day, then id), and that entry's day.
    public var balance: String
    public var balanceOn: String
    /// Yearly interest in percent, as given ("3.25"); informative.
    public var interestRate: String?
    /// The next (or final) due date, YYYY-MM-DD; informative.
    public var dueDate: String?
    public var notes: String?
    /// Hidden from lists; a balance left still counts.
    public var archived: Bool
    public var createdAt: String
    public var updatedAt: String
    /// Every entry, oldest first; only in `liability.get`, `liability.create`,
    /// `liability.revalue` and `liability.pay`.
    public var history: [LiabilityEntryRecord]?

    public init(id: Int64, name: String, liabilityType: LiabilityType, currency: String, balance: String, balanceOn: String, interestRate: String?, dueDate: String?,
                notes: String?, archived: Bool, createdAt: String, updatedAt: String, history: [LiabilityEntryRecord]?) {
        self.id = id
        self.name = name
        self.liabilityType = liabilityType
        self.currency = currency
        self.balance = balance
        self.balanceOn = balanceOn
        self.interestRate = interestRate
        self.dueDate = dueDate
        self.notes = notes
        self.archived = archived
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.history = history
    }
}

/// `liability.create`: a liability with its opening balance.
public struct LiabilityCreateRequest: WriteRequest, Hashable {
    public typealias Reply = LiabilityRecord
    public static let messageType: MessageType = "liability.create"
    public var name: String
    /// Defaults to `loan`.
    public var liabilityType: LiabilityType?
    /// Zero or more, in `currency`.
    public var balance: String
    /// Defaults to the ledger's base currency.
    public var currency: String?
    /// The opening balance's day; defaults to today.
    public var balanceOn: String?
    public var interestRate: String?
    public var dueDate: String?
    public var notes: String?

    public init(name: String, liabilityType: LiabilityType? = nil, balance: String, currency: String? = nil, balanceOn: String? = nil, interestRate: String? = nil,
                dueDate: String? = nil, notes: String? = nil) {
        self.name = name
        self.liabilityType = liabilityType
        self.balance = balance
        self.currency = currency
        self.balanceOn = balanceOn
        self.interestRate = interestRate
        self.dueDate = dueDate
        self.notes = notes
    }
}

/// `liability.list`
public struct LiabilityListRequest: ReadRequest, Hashable {
    public typealias Reply = LiabilityListReply
    public static let messageType: MessageType = "liability.list"
    public var includeArchived: Bool?
    public init(includeArchived: Bool? = nil) { self.includeArchived = includeArchived }
}

public struct LiabilityListReply: Codable, Hashable, Sendable {
    public var liabilities: [LiabilityRecord]
    public init(liabilities: [LiabilityRecord]) { self.liabilities = liabilities }
}

/// `liability.get`: one liability with its history.
public struct LiabilityGetRequest: ReadRequest, Hashable {
    public typealias Reply = LiabilityRecord
    public static let messageType: MessageType = "liability.get"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

/// `liability.update`: changes only the fields present; an empty string clears an optional one.
/// The balance changes only by `liability.revalue` and `liability.pay`.
public struct LiabilityUpdateRequest: WriteRequest, Hashable {
    public typealias Reply = LiabilityRecord
    public static let messageType: MessageType = "liability.update"
    public var id: Int64
    public var name: String?
    public var liabilityType: LiabilityType?
    public var interestRate: String?
    public var dueDate: String?
    public var notes: String?

    public init(id: Int64, name: String? = nil, liabilityType: LiabilityType? = nil, interestRate: String? = nil, dueDate: String? = nil, notes: String? = nil) {
        self.id = id
        self.name = name
        self.liabilityType = liabilityType
        self.interestRate = interestRate
        self.dueDate = dueDate
        self.notes = notes
    }
}

/// `liability.revalue`: the balance is `balance` from `date` (a statement; interest added).
public struct LiabilityRevalueRequest: WriteRequest, Hashable {
    public typealias Reply = LiabilityRecord
    public static let messageType: MessageType = "liability.revalue"
    public var id: Int64
    public var balance: String
    /// Defaults to today; not in the future.
    public var date: String?
    public var notes: String?

    public init(id: Int64, balance: String, date: String? = nil, notes: String? = nil) {
        self.id = id
        self.balance = balance
        self.date = date
        self.notes = notes
    }
}

/// `liability.pay`: pays `amount` (in the liability's currency) from a wallet: an expense
/// transaction in the wallet, linked to the liability and counted like a transfer (it is no
/// spending: net worth does not change), and a payment entry that lowers the balance.
public struct LiabilityPayRequest: WriteRequest, Hashable {
    public typealias Reply = LiabilityPaymentReply
    public static let messageType: MessageType = "liability.pay"
    public var id: Int64
    public var walletId: Int64
    /// Positive, in the liability's currency; at most the balance on `date`.
    public var amount: String
    /// What left the wallet, in its currency, when that differs from the liability's; else the
    /// amount is converted at the rate of `date` like any transaction.
    public var walletAmount: String?
    /// Defaults to today; not in the future.
    public var date: String?
    public var notes: String?

    public init(id: Int64, walletId: Int64, amount: String, walletAmount: String? = nil, date: String? = nil, notes: String? = nil) {
        self.id = id
        self.walletId = walletId
        self.amount = amount
        self.walletAmount = walletAmount
        self.date = date
        self.notes = notes
    }
}

public struct LiabilityPaymentReply: Codable, Hashable, Sendable {
    public var liability: LiabilityRecord
    public var transaction: TransactionRecord
    public init(liability: LiabilityRecord, transaction: TransactionRecord) {
        self.liability = liability
        self.transaction = transaction
    }
}

/// `liability.archive`: hides the liability from lists; a balance left still counts.
public struct LiabilityArchiveRequest: WriteRequest, Hashable {
    public typealias Reply = LiabilityRecord
    public static let messageType: MessageType = "liability.archive"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}
