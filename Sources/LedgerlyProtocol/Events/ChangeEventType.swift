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
    /// A batch of `tx.import` was applied (`data` summarises it: one event per batch, not per transaction).
    case txImported = "tx.imported"
    /// `tx.import.undo` deleted an import's transactions (`data` summarises them).
    case txImportUndone = "tx.import.undone"
    case rateProfileCreated = "rates.profile.created"
    case rateProfileUpdated = "rates.profile.updated"
    /// Rates stored (a manual rate, or a provider batch: `data` summarises it).
    case ratesUpdated = "rates.updated"
    /// A user's override ended (`data` is the rate, with `overrideEndedAt`).
    case rateOverrideEnded = "rates.override.ended"
    /// The rates service reported a provider attempt: success, or failure and its backoff.
    case rateProviderStatus = "rates.provider.status"
    /// A provider no longer configured was forgotten (`data` is its last status).
    case rateProviderRemoved = "rates.provider.removed"
    case conversionRecorded = "conversion.recorded"
    case budgetCreated = "budget.created"
    case budgetUpdated = "budget.updated"
    case budgetDeleted = "budget.deleted"
    case goalCreated = "goal.created"
    /// A goal's figures changed (funded, or its status).
    case goalUpdated = "goal.updated"
    case recurringCreated = "recurring.created"
    case recurringUpdated = "recurring.updated"
    case recurringDeleted = "recurring.deleted"
    /// An alert recorded in the alert log (raised once per key).
    case alertRaised = "alert.raised"
    /// `ledger.restore.begin` wrote an export's structure and histories (`data` counts them). One
    /// event, not one per record: restored alerts are not raised again.
    case ledgerRestored = "ledger.restored"
    case investAccountCreated = "invest.account.created"
    /// Edited or archived.
    case investAccountUpdated = "invest.account.updated"
    case assetCreated = "invest.asset.created"
    case assetUpdated = "invest.asset.updated"
    /// A trade was recorded (buy, sell, income, split, transfer).
    case tradeRecorded = "invest.trade.recorded"
    /// A trade was deleted; the asset's later trades were replayed in the same write.
    case tradeDeleted = "invest.trade.deleted"
    /// A broker file was imported (`data` summarises it).
    case tradesImported = "invest.trade.imported"
    /// Prices stored (a manual price, or a provider batch: `data` summarises it).
    case pricesUpdated = "invest.prices.updated"
    /// An allocation target was set or removed (`data` is the dimension's allocation).
    case allocationUpdated = "invest.allocation.updated"
    case manualAssetCreated = "asset.created"
    /// Edited, revalued or archived.
    case manualAssetUpdated = "asset.updated"
    case liabilityCreated = "liability.created"
    /// Edited, revalued, paid or archived.
    case liabilityUpdated = "liability.updated"
    /// A month's net-worth snapshot was taken (once per month).
    case netWorthSnapshotTaken = "networth.snapshot.taken"

    /// The entity kind the event is about.
    public var entity: String {
        switch self {
        case .settingsUpdated, .setupCompleted: "settings"
        case .walletCreated, .walletUpdated, .walletArchived: "wallet"
        case .categoryCreated, .categoryUpdated: "category"
        case .tagCreated: "tag"
        case .txCreated, .txUpdated, .txDeleted: "transaction"
        case .txImported, .txImportUndone: "import"
        case .rateProfileCreated, .rateProfileUpdated: "rate_profile"
        case .ratesUpdated, .rateOverrideEnded: "rates"
        case .rateProviderStatus, .rateProviderRemoved: "rate_provider"
        case .conversionRecorded: "conversion"
        case .budgetCreated, .budgetUpdated, .budgetDeleted: "budget"
        case .alertRaised: "alert"
        case .recurringCreated, .recurringUpdated, .recurringDeleted: "recurring"
        case .goalCreated, .goalUpdated: "goal"
        case .ledgerRestored: "ledger"
        case .investAccountCreated, .investAccountUpdated: "invest_account"
        case .assetCreated, .assetUpdated: "asset"
        case .tradeRecorded, .tradeDeleted: "trade"
        case .tradesImported: "trade_import"
        case .pricesUpdated: "prices"
        case .allocationUpdated: "allocation"
        case .manualAssetCreated, .manualAssetUpdated: "manual_asset"
        case .liabilityCreated, .liabilityUpdated: "liability"
        case .netWorthSnapshotTaken: "networth_snapshot"
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
        case .txImported, .txImportUndone: TransactionImportSummary.self
        case .rateProfileCreated, .rateProfileUpdated: RateProfileRecord.self
        case .ratesUpdated: RatesUpdatedSummary.self
        case .rateOverrideEnded: RateRecord.self
        case .rateProviderStatus, .rateProviderRemoved: RateProviderStatus.self
        case .conversionRecorded: ConversionRecord.self
        case .budgetCreated, .budgetUpdated, .budgetDeleted: BudgetRecord.self
        case .alertRaised: AlertRecord.self
        case .recurringCreated, .recurringUpdated, .recurringDeleted: RecurringRecord.self
        case .goalCreated, .goalUpdated: GoalRecord.self
        case .ledgerRestored: LedgerRestoreBeginReply.self
        case .investAccountCreated, .investAccountUpdated: InvestAccountRecord.self
        case .assetCreated, .assetUpdated: AssetRecord.self
        case .tradeRecorded, .tradeDeleted: TradeRecord.self
        case .tradesImported: TradeImportReply.self
        case .pricesUpdated: PricesUpdatedSummary.self
        case .allocationUpdated: AllocationReply.self
        case .manualAssetCreated, .manualAssetUpdated: ManualAssetRecord.self
        case .liabilityCreated, .liabilityUpdated: LiabilityRecord.self
        case .netWorthSnapshotTaken: NetWorthSnapshotRecord.self
        }
    }
}
