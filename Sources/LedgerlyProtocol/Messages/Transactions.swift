import LedgerlyCore

/// One part of a split transaction: its own amount and category.
public struct SplitPart: Codable, Hashable, Sendable {
    /// Decimal string in the transaction's currency; positive.
    public var amount: String
    public var categoryId: Int64
    public var memo: String?

    public init(amount: String, categoryId: Int64, memo: String? = nil) {
        self.amount = amount
        self.categoryId = categoryId
        self.memo = memo
    }
}

/// The other side of a transfer leg.
public struct TransferLink: Codable, Hashable, Sendable {
    public var counterpartyWalletId: Int64
    public var counterpartyTransactionId: Int64

    public init(counterpartyWalletId: Int64, counterpartyTransactionId: Int64) {
        self.counterpartyWalletId = counterpartyWalletId
        self.counterpartyTransactionId = counterpartyTransactionId
    }
}

/// A transaction as the store returns it.
public struct TransactionRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var kind: TransactionKind
    public var walletId: Int64
    /// Positive decimal string in `currency`; `kind` gives the direction.
    public var amount: String
    public var currency: String
    public var categoryId: Int64?
    public var notes: String?
    /// "YYYY-MM-DD"
    public var date: String
    public var tags: [String]
    public var attachmentPath: String?
    /// Present on the two legs of a transfer.
    public var transfer: TransferLink?
    /// Empty unless the transaction is split; the parts add up to `amount`.
    public var splits: [SplitPart]
    /// What the transaction moved in its wallet's currency (positive; `amount` when the currencies match).
    public var walletAmount: String
    /// The amount in the base currency at the kept rate; nil while no rate was known.
    public var baseAmount: String?
    public var baseCurrency: String?
    /// The rate that converted `currency` to the wallet's currency (foreign-currency transactions).
    public var conversion: RateSnapshot?
    /// The rate that converted the wallet's currency to the base currency (wallets not in the base).
    public var baseConversion: RateSnapshot?
    public var createdAt: String
    public var updatedAt: String
    /// Recorded by `tx.import`: the row's key (a bank statement row is skipped when its key is
    /// already in the wallet) and the import it came with (`tx.import.undo`). A transfer's key is
    /// on its outgoing leg.
    public var importKey: String?
    public var importId: String?

    public init(id: Int64, kind: TransactionKind, walletId: Int64, amount: String, currency: String, categoryId: Int64?, notes: String?, date: String, tags: [String], attachmentPath: String?, transfer: TransferLink?, splits: [SplitPart], walletAmount: String, baseAmount: String?, baseCurrency: String?, conversion: RateSnapshot?, baseConversion: RateSnapshot?, createdAt: String, updatedAt: String, importKey: String? = nil, importId: String? = nil) {
        self.importKey = importKey
        self.importId = importId
        self.id = id
        self.kind = kind
        self.walletId = walletId
        self.amount = amount
        self.currency = currency
        self.categoryId = categoryId
        self.notes = notes
        self.date = date
        self.tags = tags
        self.attachmentPath = attachmentPath
        self.transfer = transfer
        self.splits = splits
        self.walletAmount = walletAmount
        self.baseAmount = baseAmount
        self.baseCurrency = baseCurrency
        self.conversion = conversion
        self.baseConversion = baseConversion
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `tx.create`
public struct TransactionCreateRequest: WriteRequest, Hashable {
    public typealias Reply = TransactionRecord
    public static let messageType: MessageType = "tx.create"
    public var kind: TransactionKind
    public var walletId: Int64
    /// Positive decimal string.
    public var amount: String
    /// Defaults to the wallet's currency. Another currency is converted with the active profile's
    /// rate (or `rate`), and the rate used is kept with the transaction.
    public var currency: String?
    /// A one-off rate from `currency` to the wallet's currency (what the bank charged); shared
    /// rates are not touched.
    public var rate: String?
    public var categoryId: Int64?
    public var notes: String?
    /// "YYYY-MM-DD"
    public var date: String
    /// Tag names; tags that do not exist yet are created.
    public var tags: [String]?
    public var attachmentPath: String?
    public var splits: [SplitPart]?

    public init(kind: TransactionKind, walletId: Int64, amount: String, currency: String? = nil, rate: String? = nil, categoryId: Int64? = nil, notes: String? = nil, date: String, tags: [String]? = nil, attachmentPath: String? = nil, splits: [SplitPart]? = nil) {
        self.kind = kind
        self.walletId = walletId
        self.amount = amount
        self.currency = currency
        self.rate = rate
        self.categoryId = categoryId
        self.notes = notes
        self.date = date
        self.tags = tags
        self.attachmentPath = attachmentPath
        self.splits = splits
    }
}

/// `tx.get`
public struct TransactionGetRequest: ReadRequest, Hashable {
    public typealias Reply = TransactionRecord
    public static let messageType: MessageType = "tx.get"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

/// `tx.list`: newest first. Every filter is optional and they combine with AND.
public struct TransactionListRequest: ReadRequest, Hashable {
    public typealias Reply = TransactionListReply
    public static let messageType: MessageType = "tx.list"
    public var walletId: Int64?
    /// Matches the category, its descendants, and split parts in any of them.
    public var categoryId: Int64?
    public var tag: String?
    /// Inclusive "YYYY-MM-DD" bounds.
    public var from: String?
    public var to: String?
    /// Case-insensitive substring of the notes.
    public var text: String?
    /// 1...10000, default 100.
    public var limit: Int?
    /// Skips this many matches; not with `after`.
    public var offset: Int?
    /// The page after this transaction (the previous reply's `next`): keyset paging, as fast on
    /// the last page as on the first.
    public var after: TransactionListCursor?

    public init(walletId: Int64? = nil, categoryId: Int64? = nil, tag: String? = nil, from: String? = nil, to: String? = nil, text: String? = nil, limit: Int? = nil, offset: Int? = nil,
                after: TransactionListCursor? = nil) {
        self.walletId = walletId
        self.categoryId = categoryId
        self.tag = tag
        self.from = from
        self.to = to
        self.text = text
        self.limit = limit
        self.offset = offset
        self.after = after
    }
}

/// Where a `tx.list` page ended: its last transaction's date and id (the list is newest first,
/// by date then id).
public struct TransactionListCursor: Codable, Hashable, Sendable {
    public var date: String
    public var id: Int64

    public init(date: String, id: Int64) {
        self.date = date
        self.id = id
    }
}

public struct TransactionListReply: Codable, Hashable, Sendable {
    public var transactions: [TransactionRecord]
    /// How many transactions match the filters in all (for paging).
    public var total: Int
    /// Give it as `after` for the next page; absent on the last page.
    public var next: TransactionListCursor?

    public init(transactions: [TransactionRecord], total: Int, next: TransactionListCursor? = nil) {
        self.transactions = transactions
        self.total = total
        self.next = next
    }
}

/// `tx.update`: changes only the fields that are present. Transfer legs accept only notes,
/// date, tags and attachment; delete and re-create a transfer to change its amounts.
public struct TransactionUpdateRequest: WriteRequest, Hashable {
    public typealias Reply = TransactionRecord
    public static let messageType: MessageType = "tx.update"
    public var id: Int64
    public var kind: TransactionKind?
    public var walletId: Int64?
    public var amount: String?
    public var categoryId: Int64?
    public var notes: String?
    public var date: String?
    /// Replaces the tag set.
    public var tags: [String]?
    public var attachmentPath: String?
    /// Replaces the splits; `[]` removes them.
    public var splits: [SplitPart]?

    public init(id: Int64, kind: TransactionKind? = nil, walletId: Int64? = nil, amount: String? = nil, categoryId: Int64? = nil, notes: String? = nil, date: String? = nil, tags: [String]? = nil, attachmentPath: String? = nil, splits: [SplitPart]? = nil) {
        self.id = id
        self.kind = kind
        self.walletId = walletId
        self.amount = amount
        self.categoryId = categoryId
        self.notes = notes
        self.date = date
        self.tags = tags
        self.attachmentPath = attachmentPath
        self.splits = splits
    }
}

/// `tx.delete`: deleting one leg of a transfer deletes both.
public struct TransactionDeleteRequest: WriteRequest, Hashable {
    public typealias Reply = TransactionDeleteReply
    public static let messageType: MessageType = "tx.delete"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

public struct TransactionDeleteReply: Codable, Hashable, Sendable {
    /// Every transaction id removed (two for a transfer).
    public var deletedIds: [Int64]
    /// Goal contributions whose money this transfer moved: they no longer count towards their
    /// goals (each now has `withdrawnAt`), because a contribution and the money behind it are
    /// one fact. Empty for anything but a transfer that funded a goal.
    public var withdrawnContributions: [GoalContributionRecord]
    public init(deletedIds: [Int64], withdrawnContributions: [GoalContributionRecord] = []) {
        self.deletedIds = deletedIds
        self.withdrawnContributions = withdrawnContributions
    }

    /// Lenient like every reply: a reply from before `withdrawnContributions` existed reads as none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        deletedIds = try container.decode([Int64].self, forKey: .deletedIds)
        withdrawnContributions = try container.decodeIfPresent([GoalContributionRecord].self, forKey: .withdrawnContributions) ?? []
    }
}

/// `tx.transfer`: moves money between two wallets as two linked legs (an expense leg in the
/// source wallet, an income leg in the destination). Transfers count as neither spending nor income.
public struct TransferCreateRequest: WriteRequest, Hashable {
    public typealias Reply = TransferReply
    public static let messageType: MessageType = "tx.transfer"
    public var fromWalletId: Int64
    public var toWalletId: Int64
    /// Leaves the source wallet, in its currency.
    public var amount: String
    /// Arrives in the destination wallet, in its currency. Required when the currencies differ.
    public var toAmount: String?
    public var date: String
    public var notes: String?
    public var tags: [String]?

    public init(fromWalletId: Int64, toWalletId: Int64, amount: String, toAmount: String? = nil, date: String, notes: String? = nil, tags: [String]? = nil) {
        self.fromWalletId = fromWalletId
        self.toWalletId = toWalletId
        self.amount = amount
        self.toAmount = toAmount
        self.date = date
        self.notes = notes
        self.tags = tags
    }
}

public struct TransferReply: Codable, Hashable, Sendable {
    public var outgoing: TransactionRecord
    public var incoming: TransactionRecord
    public init(outgoing: TransactionRecord, incoming: TransactionRecord) {
        self.outgoing = outgoing
        self.incoming = incoming
    }
}
