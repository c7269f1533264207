/// What a manual asset is: a tangible one (a house, a car) counts in tangible net worth by default.
public enum ManualAssetType: String, Codable, CaseIterable, Sendable {
    case tangible, intangible
}

/// One dated value of a manual asset. Values are never overwritten: a revaluation adds one.
public struct ValuationRecord: Codable, Hashable, Sendable {
    public var id: Int64
    /// The day the value holds from (YYYY-MM-DD).
    public var date: String
    /// Decimal string in the asset's currency.
    public var value: String
    public var notes: String?
    public var createdAt: String

    public init(id: Int64, date: String, value: String, notes: String?, createdAt: String) {
        self.id = id
        self.date = date
        self.value = value
        self.notes = notes
        self.createdAt = createdAt
    }
}

/// Something owned outside wallets and investment accounts (a house, a car, a claim), valued by
/// hand; its value at a moment is its latest valuation on or before it.
public struct ManualAssetRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var assetType: ManualAssetType
    public var currency: String
    /// The latest valuation's value and day.
    public var value: String
    public var valuedOn: String
    /// A volatile asset's value is reported apart and left out of core net worth.
    public var volatile: Bool
    public var includeInCore: Bool
    public var includeInTangible: Bool
    public var notes: String?
    /// Archived assets are hidden from lists; their latest value still counts (revalue to 0 to
    /// stop counting one that was sold).
    public var archived: Bool
    public var createdAt: String
    public var updatedAt: String
    /// Every valuation, oldest first; only in `asset.get`, `asset.revalue` and `asset.create`.
    public var valuations: [ValuationRecord]?

    public init(id: Int64, name: String, assetType: ManualAssetType, currency: String, value: String, valuedOn: String, volatile: Bool, includeInCore: Bool,
                includeInTangible: Bool, notes: String?, archived: Bool, createdAt: String, updatedAt: String, valuations: [ValuationRecord]?) {
        self.id = id
        self.name = name
        self.assetType = assetType
        self.currency = currency
        self.value = value
        self.valuedOn = valuedOn
        self.volatile = volatile
        self.includeInCore = includeInCore
        self.includeInTangible = includeInTangible
        self.notes = notes
        self.archived = archived
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.valuations = valuations
    }
}

/// `asset.create`: a manual asset with its first valuation.
public struct ManualAssetCreateRequest: WriteRequest, Hashable {
    public typealias Reply = ManualAssetRecord
    public static let messageType: MessageType = "asset.create"
    public var name: String
    /// Defaults to `tangible`.
    public var assetType: ManualAssetType?
    /// Zero or more, in `currency`.
    public var value: String
    /// Defaults to the ledger's base currency.
    public var currency: String?
    /// The first valuation's day; defaults to today.
    public var valuedOn: String?
    /// Defaults to false.
    public var volatile: Bool?
    /// Defaults to `!volatile`.
    public var includeInCore: Bool?
    /// Defaults to `assetType == tangible`.
    public var includeInTangible: Bool?
    public var notes: String?

    public init(name: String, assetType: ManualAssetType? = nil, value: String, currency: String? = nil, valuedOn: String? = nil, volatile: Bool? = nil,
                includeInCore: Bool? = nil, includeInTangible: Bool? = nil, notes: String? = nil) {
        self.name = name
        self.assetType = assetType
        self.value = value
        self.currency = currency
        self.valuedOn = valuedOn
        self.volatile = volatile
        self.includeInCore = includeInCore
        self.includeInTangible = includeInTangible
        self.notes = notes
    }
}

/// `asset.list`
public struct ManualAssetListRequest: ReadRequest, Hashable {
    public typealias Reply = ManualAssetListReply
    public static let messageType: MessageType = "asset.list"
    public var includeArchived: Bool?
    public init(includeArchived: Bool? = nil) { self.includeArchived = includeArchived }
}

public struct ManualAssetListReply: Codable, Hashable, Sendable {
    public var assets: [ManualAssetRecord]
    public init(assets: [ManualAssetRecord]) { self.assets = assets }
}

/// `asset.get`: one asset with its valuations.
public struct ManualAssetGetRequest: ReadRequest, Hashable {
    public typealias Reply = ManualAssetRecord
    public static let messageType: MessageType = "asset.get"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

/// `asset.update`: changes only the fields present; the value changes only by `asset.revalue`.
public struct ManualAssetUpdateRequest: WriteRequest, Hashable {
    public typealias Reply = ManualAssetRecord
    public static let messageType: MessageType = "asset.update"
    public var id: Int64
    public var name: String?
    public var assetType: ManualAssetType?
    public var volatile: Bool?
    public var includeInCore: Bool?
    public var includeInTangible: Bool?
    /// An empty string clears them.
    public var notes: String?

    public init(id: Int64, name: String? = nil, assetType: ManualAssetType? = nil, volatile: Bool? = nil, includeInCore: Bool? = nil, includeInTangible: Bool? = nil,
                notes: String? = nil) {
        self.id = id
        self.name = name
        self.assetType = assetType
        self.volatile = volatile
        self.includeInCore = includeInCore
        self.includeInTangible = includeInTangible
        self.notes = notes
    }
}

/// `asset.revalue`: adds a dated valuation (earlier ones stay, so past net worth is unchanged).
public struct ManualAssetRevalueRequest: WriteRequest, Hashable {
    public typealias Reply = ManualAssetRecord
    public static let messageType: MessageType = "asset.revalue"
    public var id: Int64
    /// Zero or more, in the asset's currency.
    public var value: String
    /// Defaults to today; not in the future.
    public var date: String?
    public var notes: String?

    public init(id: Int64, value: String, date: String? = nil, notes: String? = nil) {
        self.id = id
        self.value = value
        self.date = date
        self.notes = notes
    }
}

/// `asset.archive`: hides the asset from lists; its value still counts.
public struct ManualAssetArchiveRequest: WriteRequest, Hashable {
    public typealias Reply = ManualAssetRecord
    public static let messageType: MessageType = "asset.archive"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}
