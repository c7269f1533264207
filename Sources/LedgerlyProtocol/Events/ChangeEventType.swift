/// Every change-event type the store publishes.
public enum ChangeEventType: String, CaseIterable, Sendable {
    case settingsUpdated = "settings.updated"
    case setupCompleted = "setup.completed"
    case walletCreated = "wallet.created"
    case walletUpdated = "wallet.updated"
    case walletArchived = "wallet.archived"
    case categoryCreated = "category.created"
    case categoryUpdated = "category.updated"
    case tagCreated = "tag.created"
    case txCreated = "tx.created"
    case txUpdated = "tx.updated"
    case txDeleted = "tx.deleted"

    /// The entity kind the event is about.
    public var entity: String {
        switch self {
        case .settingsUpdated, .setupCompleted: "settings"
        case .walletCreated, .walletUpdated, .walletArchived: "wallet"
        case .categoryCreated, .categoryUpdated: "category"
        case .tagCreated: "tag"
        case .txCreated, .txUpdated, .txDeleted: "transaction"
        }
    }

    /// The Swift type of the event's `data`.
    public var dataType: any (Codable & Sendable).Type {
        switch self {
        case .settingsUpdated, .setupCompleted: SettingsRecord.self
        case .walletCreated, .walletUpdated, .walletArchived: WalletRecord.self
        case .categoryCreated, .categoryUpdated: CategoryRecord.self
        case .tagCreated: TagRecord.self
        case .txCreated, .txUpdated, .txDeleted: TransactionRecord.self
        }
    }
}
