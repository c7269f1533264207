import LedgerlyCore

/// A wallet as the store returns it. Amounts are decimal strings in the wallet's currency.
public struct WalletRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var icon: String?
    public var currency: String
    public var type: WalletType
    public var startingBalance: String
    /// Starting balance plus every transaction's effect; maintained by the store on each write.
    public var balance: String
    public var institution: String?
    public var sortOrder: Int
    public var includeInNetWorth: Bool
    public var archived: Bool
    public var createdAt: String
    public var updatedAt: String

    public init(id: Int64, name: String, icon: String?, currency: String, type: WalletType, startingBalance: String, balance: String, institution: String?, sortOrder: Int, includeInNetWorth: Bool, archived: Bool, createdAt: String, updatedAt: String) {
        self.id = id
        self.name = name
        self.icon = icon
        self.currency = currency
        self.type = type
        self.startingBalance = startingBalance
        self.balance = balance
        self.institution = institution
        self.sortOrder = sortOrder
        self.includeInNetWorth = includeInNetWorth
        self.archived = archived
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `wallet.create`
public struct WalletCreateRequest: WriteRequest, Hashable {
    public typealias Reply = WalletRecord
    public static let messageType: MessageType = "wallet.create"
    public var name: String
    public var currency: String
    public var type: WalletType?
    public var icon: String?
    /// Decimal string; defaults to "0".
    public var startingBalance: String?
    public var institution: String?
    public var sortOrder: Int?
    public var includeInNetWorth: Bool?

    public init(name: String, currency: String, type: WalletType? = nil, icon: String? = nil, startingBalance: String? = nil, institution: String? = nil, sortOrder: Int? = nil, includeInNetWorth: Bool? = nil) {
        self.name = name
        self.currency = currency
        self.type = type
        self.icon = icon
        self.startingBalance = startingBalance
        self.institution = institution
        self.sortOrder = sortOrder
        self.includeInNetWorth = includeInNetWorth
    }
}

/// `wallet.list`
public struct WalletListRequest: ReadRequest, Hashable {
    public typealias Reply = WalletListReply
    public static let messageType: MessageType = "wallet.list"
    public var includeArchived: Bool?
    public init(includeArchived: Bool? = nil) { self.includeArchived = includeArchived }
}

public struct WalletListReply: Codable, Hashable, Sendable {
    public var wallets: [WalletRecord]
    public init(wallets: [WalletRecord]) { self.wallets = wallets }
}

/// `wallet.get`
public struct WalletGetRequest: ReadRequest, Hashable {
    public typealias Reply = WalletRecord
    public static let messageType: MessageType = "wallet.get"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

/// `wallet.update`: changes only the fields that are present. The currency cannot change,
/// because every stored amount of the wallet is in it.
public struct WalletUpdateRequest: WriteRequest, Hashable {
    public typealias Reply = WalletRecord
    public static let messageType: MessageType = "wallet.update"
    public var id: Int64
    public var name: String?
    public var type: WalletType?
    public var icon: String?
    public var startingBalance: String?
    public var institution: String?
    public var sortOrder: Int?
    public var includeInNetWorth: Bool?

    public init(id: Int64, name: String? = nil, type: WalletType? = nil, icon: String? = nil, startingBalance: String? = nil, institution: String? = nil, sortOrder: Int? = nil, includeInNetWorth: Bool? = nil) {
        self.id = id
        self.name = name
        self.type = type
        self.icon = icon
        self.startingBalance = startingBalance
        self.institution = institution
        self.sortOrder = sortOrder
        self.includeInNetWorth = includeInNetWorth
    }
}

/// `wallet.archive`: hides a wallet from lists and new transactions; its history stays.
public struct WalletArchiveRequest: WriteRequest, Hashable {
    public typealias Reply = WalletRecord
    public static let messageType: MessageType = "wallet.archive"
    public var id: Int64
    /// `false` un-archives. Defaults to `true`.
    public var archived: Bool?
    public init(id: Int64, archived: Bool? = nil) {
        self.id = id
        self.archived = archived
    }
}
