import LedgerlyCore

/// What kind of account holds investments; it decides nothing in the arithmetic, only grouping.
public enum InvestAccountType: String, Codable, CaseIterable, Sendable {
    case brokerage, retirement, cryptoExchange, other
}

/// An investment account (a brokerage account, a pension, an exchange), as the store returns it.
public struct InvestAccountRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var broker: String?
    public var accountType: InvestAccountType
    /// The currency its costs, gains and values are counted in.
    public var baseCurrency: String
    public var costBasisMethod: CostBasisMethod
    public var includeInNetWorth: Bool
    public var archived: Bool
    public var createdAt: String
    public var updatedAt: String

    public init(id: Int64, name: String, broker: String?, accountType: InvestAccountType, baseCurrency: String, costBasisMethod: CostBasisMethod, includeInNetWorth: Bool, archived: Bool, createdAt: String, updatedAt: String) {
        self.id = id
        self.name = name
        self.broker = broker
        self.accountType = accountType
        self.baseCurrency = baseCurrency
        self.costBasisMethod = costBasisMethod
        self.includeInNetWorth = includeInNetWorth
        self.archived = archived
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `invest.account.create`
public struct InvestAccountCreateRequest: WriteRequest, Hashable {
    public typealias Reply = InvestAccountRecord
    public static let messageType: MessageType = "invest.account.create"
    public var name: String
    public var broker: String?
    /// Defaults to `brokerage`.
    public var accountType: InvestAccountType?
    /// Defaults to the ledger's base currency.
    public var baseCurrency: String?
    /// Defaults to `fifo`.
    public var costBasisMethod: CostBasisMethod?
    /// Defaults to true.
    public var includeInNetWorth: Bool?

    public init(name: String, broker: String? = nil, accountType: InvestAccountType? = nil, baseCurrency: String? = nil, costBasisMethod: CostBasisMethod? = nil, includeInNetWorth: Bool? = nil) {
        self.name = name
        self.broker = broker
        self.accountType = accountType
        self.baseCurrency = baseCurrency
        self.costBasisMethod = costBasisMethod
        self.includeInNetWorth = includeInNetWorth
    }
}

/// `invest.account.list`
public struct InvestAccountListRequest: ReadRequest, Hashable {
    public typealias Reply = InvestAccountListReply
    public static let messageType: MessageType = "invest.account.list"
    /// Archived accounts are listed too when true.
    public var includeArchived: Bool?
    public init(includeArchived: Bool? = nil) { self.includeArchived = includeArchived }
}

public struct InvestAccountListReply: Codable, Hashable, Sendable {
    public var accounts: [InvestAccountRecord]
    public init(accounts: [InvestAccountRecord]) { self.accounts = accounts }
}

/// `invest.account.update`: changes only the fields that are present. A new cost-basis method
/// recomputes every lot and realised gain of the account in the same write.
public struct InvestAccountUpdateRequest: WriteRequest, Hashable {
    public typealias Reply = InvestAccountRecord
    public static let messageType: MessageType = "invest.account.update"
    public var id: Int64
    public var name: String?
    /// An empty string clears it.
    public var broker: String?
    public var accountType: InvestAccountType?
    public var costBasisMethod: CostBasisMethod?
    public var includeInNetWorth: Bool?

    public init(id: Int64, name: String? = nil, broker: String? = nil, accountType: InvestAccountType? = nil, costBasisMethod: CostBasisMethod? = nil, includeInNetWorth: Bool? = nil) {
        self.id = id
        self.name = name
        self.broker = broker
        self.accountType = accountType
        self.costBasisMethod = costBasisMethod
        self.includeInNetWorth = includeInNetWorth
    }
}

/// `invest.account.archive`: the account takes no new trades; its holdings stay, and still count
/// in net worth when it says so.
public struct InvestAccountArchiveRequest: WriteRequest, Hashable {
    public typealias Reply = InvestAccountRecord
    public static let messageType: MessageType = "invest.account.archive"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}
