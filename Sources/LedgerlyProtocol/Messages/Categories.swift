import LedgerlyCore

/// A category as the store returns it.
public struct CategoryRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var kind: CategoryKind
    public var parentId: Int64?
    /// Names from the root down, joined by "/": "Food/Groceries".
    public var path: String
    public var icon: String?
    public var color: String?
    public var budgetingEnabled: Bool
    public var sortOrder: Int

    public init(id: Int64, name: String, kind: CategoryKind, parentId: Int64?, path: String, icon: String?, color: String?, budgetingEnabled: Bool, sortOrder: Int) {
        self.id = id
        self.name = name
        self.kind = kind
        self.parentId = parentId
        self.path = path
        self.icon = icon
        self.color = color
        self.budgetingEnabled = budgetingEnabled
        self.sortOrder = sortOrder
    }
}

/// `category.create`
public struct CategoryCreateRequest: WriteRequest, Hashable {
    public typealias Reply = CategoryRecord
    public static let messageType: MessageType = "category.create"
    public var name: String
    /// Required for a top-level category; a child takes its parent's kind.
    public var kind: CategoryKind?
    public var parentId: Int64?
    public var icon: String?
    /// "#RRGGBB"
    public var color: String?
    public var budgetingEnabled: Bool?
    public var sortOrder: Int?

    public init(name: String, kind: CategoryKind? = nil, parentId: Int64? = nil, icon: String? = nil, color: String? = nil, budgetingEnabled: Bool? = nil, sortOrder: Int? = nil) {
        self.name = name
        self.kind = kind
        self.parentId = parentId
        self.icon = icon
        self.color = color
        self.budgetingEnabled = budgetingEnabled
        self.sortOrder = sortOrder
    }
}

/// `category.list`: every category, parents before their children, in sort order.
public struct CategoryListRequest: ReadRequest, Hashable {
    public typealias Reply = CategoryListReply
    public static let messageType: MessageType = "category.list"
    public var kind: CategoryKind?
    public init(kind: CategoryKind? = nil) { self.kind = kind }
}

public struct CategoryListReply: Codable, Hashable, Sendable {
    public var categories: [CategoryRecord]
    public init(categories: [CategoryRecord]) { self.categories = categories }
}

/// `category.get`: one category by id, with its path.
public struct CategoryGetRequest: ReadRequest, Hashable {
    public typealias Reply = CategoryRecord
    public static let messageType: MessageType = "category.get"
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

/// `category.update`: changes only the fields that are present.
public struct CategoryUpdateRequest: WriteRequest, Hashable {
    public typealias Reply = CategoryRecord
    public static let messageType: MessageType = "category.update"
    public var id: Int64
    public var name: String?
    /// Moves the category under another parent of the same kind.
    public var parentId: Int64?
    /// Moves the category to the top level (clears its parent).
    public var makeTopLevel: Bool?
    public var icon: String?
    public var color: String?
    public var budgetingEnabled: Bool?
    public var sortOrder: Int?

    public init(id: Int64, name: String? = nil, parentId: Int64? = nil, makeTopLevel: Bool? = nil, icon: String? = nil, color: String? = nil, budgetingEnabled: Bool? = nil, sortOrder: Int? = nil) {
        self.id = id
        self.name = name
        self.parentId = parentId
        self.makeTopLevel = makeTopLevel
        self.icon = icon
        self.color = color
        self.budgetingEnabled = budgetingEnabled
        self.sortOrder = sortOrder
    }
}
